// HTTP for password reset: ask for a link, use it, and an admin sending one to a member.
import { finished } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../contract/paging.ts";
import {
  messageBodySchema,
  passwordResetConfirmSchema,
  passwordResetMessages,
  passwordResetRequestSchema,
} from "../../../contract/password-reset.ts";
import {
  confirmPasswordReset,
  requestPasswordReset,
  resetPasswordAsAdmin,
} from "../../commands/auth.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { requireAdmin } from "../../plugins/session.ts";
import { findActiveUserByLogin } from "../users/service.ts";

export const passwordResetRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, limitStore } = deps;
  const as = writer(deps);
  const tags = ["password-reset"];
  // Reset e-mails land in someone's inbox: a few per address and per account per fifteen minutes.
  // The account is counted, not the text typed: its username and e-mail, in any case, are one.
  // A login that names no account spends from a counter of its own (what was typed, in any case),
  // so that every request does the same work. Past its account's limit a request is answered as
  // any other and sends nothing, so that neither the answer nor its time tells whether a login
  // belongs to an account.
  const perAddress = new Limit(limitStore, "reset", 10, 15, by.address);
  const perAccount = new Limit(limitStore, "reset-account", 3, 15);

  app.post(
    "/password-reset/request",
    {
      schema: {
        tags,
        summary: "E-mail a password reset link to the account with this username or e-mail",
        description: "Always 202, whether or not the account exists.",
        body: passwordResetRequestSchema,
        response: { 202: messageBodySchema, ...errorResponses(400, 429) },
      },
      config: { rateLimit: { message: passwordResetMessages.tooMany, limits: [perAddress] } },
    },
    async (request, reply) => {
      const { login } = request.body;
      const user = await findActiveUserByLogin(db, login);
      const counted = user ? `user:${user.id}` : `login:${login.toLowerCase()}`;
      const wait = await perAccount.spendFrom(counted);
      if (user && wait === 0) {
        // Written and sent once the answer has gone, so that it comes as soon for every login.
        finished(reply.raw, () => {
          requestPasswordReset(as(null), user).catch((error) =>
            request.log.error({ err: error, userId: user.id }, "password reset mail failed"),
          );
        });
      }
      return reply.status(202).send({ message: passwordResetMessages.requested });
    },
  );

  app.post(
    "/password-reset/confirm",
    {
      schema: {
        tags,
        summary: "Choose a new password with a reset link's token; signs out every session",
        body: passwordResetConfirmSchema,
        response: { 200: messageBodySchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      await confirmPasswordReset(as(null), request.body.token, request.body.password);
      return { message: passwordResetMessages.done };
    },
  );

  app.post(
    "/analytics/users/:id/reset-password",
    {
      schema: {
        tags: ["admin"],
        summary: "Send a member a password reset e-mail (admins only; audited)",
        description:
          "409, sending nothing and writing nothing, when the server cannot send e-mail (a " +
          "setting of this server, not a passing failure).",
        params: z.object({ id: idParam }),
        response: { 200: messageBodySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await resetPasswordAsAdmin(as(requireAdmin(request)), request.params.id);
      return { message: passwordResetMessages.adminSent };
    },
  );
};
