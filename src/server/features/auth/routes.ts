// HTTP for accounts: register, sign in, sign out, who am I.
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  authMessages,
  type LoginInput,
  loginSchema,
  registerSchema,
} from "../../../contract/auth.ts";
import { currentUserSchema } from "../../../contract/user.ts";
import type { AppDeps } from "../../app.ts";
import { errorResponses, unauthorized } from "../../http-error.ts";
import { by, Limit } from "../../plugins/rate-limit.ts";
import { clearSessionCookie, sessionToken, startSession } from "../../plugins/session.ts";
import { createSession, deleteSession } from "../../plugins/session-store.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { registerMember } from "../users/service.ts";
import { markActive, verifyCredentials } from "./service.ts";

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  const tags = ["auth"];
  // Sign-in attempts are counted before the password is checked. A username from one address
  // gets a few tries; the username from everywhere, and one address over all usernames, get
  // more, so that a stranger cannot lock an owner out from one address. A success gives its
  // points back and clears its address's tries.
  const username = (request: FastifyRequest) =>
    `login:${(request.body as LoginInput).username.toLowerCase()}`;
  const fromHere = new Limit(5, 15, (request) => `${username(request)}|${request.ip}`);
  const fromAnywhere = new Limit(50, 15, username);
  const perAddress = new Limit(50, 15, by.address);

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
          limits: [new Limit(10, 60, by.address)],
        },
      },
    },
    async (request, reply) => {
      const { user, token } = await db.transaction(async (tx) => {
        const user = await registerMember(tx, request.body);
        return { user, token: await createSession(tx, user.id, request.headers["user-agent"]) };
      });
      await startSession(db, request, reply, config, token);
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
      config: {
        rateLimit: {
          message: authMessages.tooManyAttempts,
          limits: [fromHere, perAddress, fromAnywhere],
        },
      },
    },
    async (request, reply) => {
      const user = await verifyCredentials(db, request.body);
      await Promise.all([
        fromHere.reset(request),
        fromAnywhere.refund(request),
        perAddress.refund(request),
      ]);
      const token = await createSession(db, user.id, request.headers["user-agent"]);
      await startSession(db, request, reply, config, token);
      return presentCurrentUser(await markActive(db, user.id));
    },
  );

  app.post(
    "/logout",
    { schema: { tags, summary: "Sign out", response: { 204: z.null() } } },
    async (request, reply) => {
      const token = sessionToken(request);
      if (token) await deleteSession(db, token);
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
