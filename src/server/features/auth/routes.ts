// HTTP for accounts: register, sign in, sign out, who am I.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { authMessages, loginSchema, registerSchema } from "../../../contract/auth.ts";
import { currentUserSchema } from "../../../contract/user.ts";
import type { AppDeps } from "../../app.ts";
import { errorResponses, unauthorized } from "../../http-error.ts";
import { clearSessionCookie, sessionToken, startSession } from "../../plugins/session.ts";
import { createSession, deleteSession } from "../../plugins/session-store.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { registerMember } from "../users/service.ts";
import { LoginLimiter } from "./login-limiter.ts";
import { markActive, verifyCredentials } from "./service.ts";

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  const limiter = new LoginLimiter();
  const tags = ["auth"];

  app.post(
    "/register",
    {
      schema: {
        tags,
        summary: "Create an account and sign in",
        body: registerSchema,
        response: { 201: currentUserSchema, ...errorResponses(400, 409) },
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
    },
    async (request, reply) => {
      const { username } = request.body;
      await limiter.check(username, request.ip).catch((error) => {
        reply.header("retry-after", String(error.retryAfter ?? 60));
        throw error;
      });
      const user = await verifyCredentials(db, request.body).catch(async (error) => {
        if (error?.message === authMessages.wrongCredentials) {
          await limiter.recordFailure(username, request.ip);
        }
        throw error;
      });
      await limiter.recordSuccess(username);
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
