// Reads the session cookie of each API request into `request.user`; the cookie and guard helpers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import { forbidden, unauthorized } from "../http-error.ts";
import { canAdminister } from "../policy.ts";
import { lookupSession, SESSION_COOKIE, SESSION_IDLE_DAYS } from "../security/session-store.ts";
import { hashToken } from "../security/tokens.ts";
import type { SessionCache } from "./session-cache.ts";

declare module "fastify" {
  interface FastifyRequest {
    user: UserRow | null;
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** The session cookie's name in this app (see sessionCookieName). */
    sessionCookie?: string;
    /** The members behind recent sessions, kept in memory for signed-in reads. */
    sessionCache: SessionCache;
  }
}

/**
 * `__Host-prism_session` on https in production: the prefix makes the browser refuse the cookie
 * unless it is Secure, for the whole site and set by the site itself (no sibling domain can plant
 * one). `prism_session` otherwise.
 */
export function sessionCookieName(config: Config): string {
  return sessionCookieOptions(config).secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
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

/** The session token this request carries, if any. */
export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies?.[request.server.sessionCookie ?? SESSION_COOKIE];
}

/** The browser a session starts in: its user agent, and the session it came with (which ends). */
export function browserOf(request: FastifyRequest) {
  return { userAgent: request.headers["user-agent"], previousToken: sessionToken(request) };
}

/** Gives the browser a new session's cookie (the command that started it ended the one it had). */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string) {
  reply.setCookie(sessionCookieName(config), token, sessionCookieOptions(config));
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  const { maxAge: _maxAge, ...options } = sessionCookieOptions(config);
  reply.clearCookie(sessionCookieName(config), options);
}

/** The signed-in member, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The signed-in admin: a 401 when signed out, a 403 for anyone else. */
export function requireAdmin(
  request: FastifyRequest,
  message = "Only admins can do that",
): UserRow {
  const user = requireUser(request);
  if (!canAdminister(user)) throw forbidden(message);
  return user;
}

/** Requests that change nothing: they may take the member from the session cache. */
const reads = new Set(["GET", "HEAD"]);

/**
 * `request.user` for each request. Reads take it from the session cache; writes ask the database,
 * and once one answers, its member's sessions are forgotten, so that whatever it changed of them
 * shows in the member's next read.
 */
export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; cache: SessionCache }) => {
    app.decorateRequest("user", null);
    // A callback, not a promise: a request without a session cookie has nothing to wait for.
    app.addHook("onRequest", (request, _reply, done) => {
      const token = sessionToken(request);
      if (!token) return done();
      const tokenHash = hashToken(token);
      const lookup = () => lookupSession(opts.db, tokenHash);
      const user = reads.has(request.method)
        ? opts.cache.resolve(tokenHash, lookup)
        : lookup().then((session) => session?.user ?? null);
      user.then((found) => {
        request.user = found;
        done();
      }, done);
    });
    app.addHook("onSend", (request, _reply, payload, done) => {
      if (request.user && !reads.has(request.method)) opts.cache.forgetUser(request.user.id);
      done(null, payload);
    });
  },
);
