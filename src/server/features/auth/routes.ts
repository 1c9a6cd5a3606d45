// HTTP for accounts: register, sign in, sign out, who am I.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { authMessages, loginSchema, registerSchema } from "../../../contract/auth.ts";
import { currentUserSchema } from "../../../contract/user.ts";
import { register, signIn, signOut } from "../../commands/auth.ts";
import { writer } from "../../commands/write.ts";
import type { AppDeps } from "../../deps.ts";
import { errorResponses, unauthorized } from "../../http-error.ts";
import { by, Limit, RateLimited } from "../../plugins/rate-limit.ts";
import {
  browserOf,
  clearSessionCookie,
  sessionToken,
  setSessionCookie,
} from "../../plugins/session.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { findUserByUsername } from "../users/service.ts";
import { verifyCredentials } from "./service.ts";

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config, limitStore } = deps;
  const tags = ["auth"];
  const as = writer(deps);
  // Sign-in attempts are counted by the account a name signs in to, so that every spelling of a
  // username shares one count (an unknown name counts as itself). One account from one address
  // gets a few tries, and one address over all accounts more, counted before the password is
  // checked; a success clears its address's tries at the account and gives its point back.
  // Wrong passwords at an account from everywhere are counted after the check: once there were
  // many, a wrong one answers 429 instead of 401, but the right one still signs in, so that
  // strangers cannot lock its owner out.
  const fromHere = new Limit(limitStore, "sign-in", 5, 15);
  const perAddress = new Limit(limitStore, "sign-in-address", 50, 15, by.address);
  const failures = new Limit(limitStore, "sign-in-failures", 50, 15);

  app.post(
    "/register",
    {
      schema: {
        tags,
        summary: "Create an account and sign in",
        body: registerSchema,
        response: { 201: currentUserSchema, ...errorResponses(400, 409, 429) },
      },
      config: {
        rateLimit: {
          message: authMessages.tooManyRegistrations,
          limits: [new Limit(limitStore, "register", 10, 60, by.address)],
        },
      },
    },
    async (request, reply) => {
      const { user, token } = await register(as(null), request.body, browserOf(request));
      setSessionCookie(reply, config, token);
      return reply.status(201).send(presentCurrentUser(user));
    },
  );

  app.post(
    "/login",
    {
      schema: {
        tags,
        summary: "Sign in with username and password",
        body: loginSchema,
        response: { 200: currentUserSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      const account = await findUserByUsername(db, username);
      const counted = account ? `login:user:${account.id}` : `login:name:${username.toLowerCase()}`;
      const here = `${counted}|${by.address(request)}`;
      let wait = await fromHere.spendFrom(here);
      if (wait === 0) wait = await perAddress.spend(request);
      if (wait > 0) throw new RateLimited(authMessages.tooManyAttempts, wait);
      const user = await verifyCredentials(account, password);
      if (!user) {
        const slowed = await failures.spendFrom(counted);
        if (slowed > 0) throw new RateLimited(authMessages.tooManyAttempts, slowed);
        throw unauthorized(authMessages.wrongCredentials);
      }
      await Promise.all([fromHere.resetFrom(here), perAddress.refund(request)]);
      const signedIn = await signIn(as(user), browserOf(request));
      setSessionCookie(reply, config, signedIn.token);
      return presentCurrentUser(signedIn.user);
    },
  );

  app.post(
    "/logout",
    { schema: { tags, summary: "Sign out", response: { 204: z.null() } } },
    async (request, reply) => {
      const token = sessionToken(request);
      // This session's streams end on every process; the member's other devices stay signed in.
      if (token) await signOut(as(request.user ?? null), token);
      clearSessionCookie(reply, config);
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/user",
    {
      schema: {
        tags,
        summary: "The signed-in member (401 when signed out)",
        response: { 200: currentUserSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      if (!request.user) throw unauthorized(authMessages.notSignedIn);
      return presentCurrentUser(request.user);
    },
  );
};
