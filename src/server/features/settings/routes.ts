// HTTP for Profile Settings: update the profile, change the password, connect or disconnect
// Google, delete the account.
// The sensitive ones ask the member to show again who they are (reauth.ts).
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { passwordChangeSchema } from "../../../contract/password-reset.ts";
import {
  currentUserSchema,
  profileMessages,
  profileUpdateSchema,
  reauthSchema,
} from "../../../contract/user.ts";
import { changePassword, confirmIdentity, disconnectGoogle } from "../../commands/auth.ts";
import { checkWebsite, deleteAccount, updateProfile } from "../../commands/users.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { badRequest, errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { clearSessionCookie, requireUser, sessionToken } from "../../plugins/session.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { createReauth } from "./reauth.ts";

const tags = ["settings"];
/** What checking the website answers when it cannot; only the server says them. */
const websiteMessages = {
  noWebsite: "Add a website first",
  tooManyChecks: "Too many checks of your website. Try again in a few minutes.",
};
// A bodiless call is one without a password, and gets the same answer.
const reauthBody = reauthSchema.nullish();

/** What each call takes and answers. */
const schemas = {
  profile: {
    tags,
    summary: "Update the signed-in member's profile (a new e-mail needs currentPassword)",
    body: profileUpdateSchema,
    response: { 200: currentUserSchema, ...errorResponses(400, 401, 403, 409, 429) },
  },
  password: {
    tags,
    summary:
      "Change the signed-in member's password (or choose one, for a Google-only account); signs out their other sessions",
    body: passwordChangeSchema,
    response: { 200: currentUserSchema, ...errorResponses(400, 401, 403, 429) },
  },
  checkWebsite: {
    tags,
    summary:
      'Check again whether the signed-in member\'s website links back to their Prism page with rel="me"',
    response: { 200: currentUserSchema, ...errorResponses(400, 401, 429) },
  },
  confirmGoogle: {
    tags,
    summary:
      "Confirm the signed-in member with currentPassword before connecting Google (then /auth/google?connect=1)",
    body: reauthBody,
    response: { 204: z.null(), ...errorResponses(400, 401, 403, 429) },
  },
  disconnectGoogle: {
    tags,
    summary: "Disconnect Google from the signed-in member (who must have a password)",
    body: reauthBody,
    response: { 200: currentUserSchema, ...errorResponses(400, 401, 429) },
  },
  deleteAccount: {
    tags,
    summary: "Delete the signed-in member and everything that is theirs",
    body: reauthBody,
    response: { 204: z.null(), ...errorResponses(400, 401, 403, 429) },
  },
};

export const settingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config, limitStore } = deps;
  const as = writer(deps);
  const reauthenticate = createReauth(db, config, limitStore);
  // How Prism fetches a member's website to see that it links back.
  const fetching = {
    production: config.production,
    userAgent: `Prism (rel="me" check; +${config.appOrigin})`,
  };
  const checks = {
    rateLimit: {
      message: websiteMessages.tooManyChecks,
      limits: [new Limit(limitStore, "website-checks", 10, 15, by.member)],
    },
  };

  app.put("/user/profile", { schema: schemas.profile }, async (request) => {
    const before = requireUser(request);
    const emailChanged = request.body.email !== before.email;
    if (emailChanged) await reauthenticate(request, request.body.currentPassword);
    const { user, mailed } = await updateProfile(as(before), request.body, fetching);
    mailed.catch((error) =>
      request.log.error({ err: error, userId: user.id }, "e-mail change notice failed"),
    );
    return presentCurrentUser(user);
  });

  app.post(
    "/user/website/check",
    { schema: schemas.checkWebsite, config: checks },
    async (request) => {
      const user = requireUser(request);
      if (user.websiteUrl === null) throw badRequest(websiteMessages.noWebsite);
      return presentCurrentUser(await checkWebsite(as(user), fetching));
    },
  );

  app.put("/user/password", { schema: schemas.password }, async (request) => {
    await reauthenticate(request, request.body.currentPassword);
    // The other sessions' streams end on every process; this page's reopens, still signed in.
    const user = await changePassword(
      as(requireUser(request)),
      sessionToken(request) ?? "",
      request.body.password,
    );
    return presentCurrentUser(user);
  });

  app.post("/user/google", { schema: schemas.confirmGoogle }, async (request, reply) => {
    await reauthenticate(request, request.body?.currentPassword);
    await confirmIdentity(as(requireUser(request)), sessionToken(request) ?? "");
    return reply.status(204).send(null);
  });

  app.delete("/user/google", { schema: schemas.disconnectGoogle }, async (request) => {
    const user = requireUser(request);
    if (user.password === null) throw badRequest(profileMessages.googleOnly);
    await reauthenticate(request, request.body?.currentPassword);
    return presentCurrentUser(await disconnectGoogle(as(user)));
  });

  app.delete("/user/account", { schema: schemas.deleteAccount }, async (request, reply) => {
    await reauthenticate(request, request.body?.currentPassword);
    await deleteAccount(as(requireUser(request)));
    clearSessionCookie(reply, config);
    return reply.status(204).send(null);
  });
};
