// HTTP for accounts: register, sign in, sign out, who am I.
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { authMessages, loginSchema, registerSchema } from "../../../contract/auth.ts";
import { errorBodySchema } from "../../../contract/errors.ts";
import { currentUserSchema } from "../../../contract/user.ts";
import type { AppDeps } from "../../app.ts";
import { unauthorized } from "../../http-error.ts";
import { clearSessionCookie, setSessionCookie } from "../../plugins/session.ts";
import { presentCurrentUser } from "../users/presenter.ts";
import { LoginLimiter } from "./login-limiter.ts";
import { markActive, registerUser, verifyCredentials } from "./service.ts";
import { createSession, deleteSession, SESSION_COOKIE } from "./sessions.ts";

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
        response: { 201: currentUserSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { user, token } = await db.transaction(async (tx) => {
        const user = await registerUser(tx, request.body);
        return { user, token: await createSession(tx, user.id, request.headers["user-agent"]) };
      });
      await replaceOldSession(request.cookies[SESSION_COOKIE]);
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
        response: {
          200: currentUserSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          429: errorBodySchema,
        },
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
      await replaceOldSession(request.cookies[SESSION_COOKIE]);
      const token = await createSession(db, user.id, request.headers["user-agent"]);
      setSessionCookie(reply, config, token);
      return presentCurrentUser(await markActive(db, user.id));
    },
  );

  app.post(
    "/logout",
    { schema: { tags, summary: "Sign out", response: { 204: z.null() } } },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
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
        response: { 200: currentUserSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      if (!request.user) throw unauthorized(authMessages.notSignedIn);
      return presentCurrentUser(request.user);
    },
  );

  /** Signing in rotates the session: whatever session the browser had is ended. */
  async function replaceOldSession(token: string | undefined) {
    if (token) await deleteSession(db, token);
  }
};
