// Reads the session cookie of each API request into `request.user`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import { resolveSession, SESSION_COOKIE, SESSION_IDLE_DAYS } from "../features/auth/sessions.ts";
import { unauthorized } from "../http-error.ts";

declare module "fastify" {
  interface FastifyRequest {
    user: UserRow | null;
  }
}

export function sessionCookieOptions(config: Config) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: config.production && config.appOrigin.startsWith("https:"),
    maxAge: SESSION_IDLE_DAYS * 24 * 60 * 60,
  };
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string) {
  reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(config));
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  const { maxAge: _maxAge, ...options } = sessionCookieOptions(config);
  reply.clearCookie(SESSION_COOKIE, options);
}

/** The signed-in member, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

export const sessionPlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  app.decorateRequest("user", null);
  app.addHook("onRequest", async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    request.user = token ? await resolveSession(opts.db, token) : null;
  });
});
