// Anonymous visitors: a long-lived random `vid` cookie, known to the database only as an HMAC.
import { createHmac, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";
import type { UserRow } from "../db/schema.ts";
import type { Viewer } from "../policy.ts";
import { sessionToken } from "./session.ts";

export const VISITOR_COOKIE = "vid";
const ONE_YEAR = 365 * 24 * 60 * 60;

/** Who is acting: a signed-in member, or an anonymous visitor known by their visitor hash. */
export type Participant = { user: UserRow } | { visitorHash: string };

/**
 * This browser's `vid`, issued now if it has none. Pages get one with their HTML, so that the
 * first API calls of a new visitor (a heart clicked at once) all carry the same one.
 */
export function ensureVisitorId(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
): string {
  const current = request.cookies[VISITOR_COOKIE];
  if (current && /^[\w-]{16,64}$/.test(current)) return current;
  const vid = randomBytes(18).toString("base64url");
  request.cookies[VISITOR_COOKIE] = vid;
  reply.setCookie(VISITOR_COOKIE, vid, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.production && config.appOrigin.startsWith("https:"),
    maxAge: ONE_YEAR,
  });
  return vid;
}

/** The visitor hash of this browser, giving it a `vid` cookie first if it has none. */
function visitorHash(request: FastifyRequest, reply: FastifyReply, config: Config, secret: string) {
  return createHmac("sha256", secret)
    .update(ensureVisitorId(request, reply, config))
    .digest("hex");
}

/** The member, or else this browser as an anonymous visitor (given a `vid` if it has none). */
export function participantOf(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secret: string,
): Participant {
  return request.user
    ? { user: request.user }
    : { visitorHash: visitorHash(request, reply, config, secret) };
}

/** Who is looking, without handing a new visitor a cookie just for reading. */
export function viewerOf(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secret: string,
): Viewer {
  return {
    user: request.user,
    visitorHash: request.cookies[VISITOR_COOKIE]
      ? visitorHash(request, reply, config, secret)
      : null,
  };
}

/**
 * What tells viewers apart in a tag: their session cookie while its session stands (so read once
 * the session is known, when the request carries one), and their visitor cookie.
 */
export function viewerCookies(request: FastifyRequest): string {
  const session = request.user ? sessionToken(request) : "";
  return `${session}|${request.cookies[VISITOR_COOKIE] ?? ""}`;
}

/** A participant asking for a cached read, and the cookies that tell them apart in its tag. */
export interface ParticipantAsking {
  participant: Participant;
  cookies: string;
}

/** The participant asking (a new visitor given a `vid` first, which its tag then names). */
export function participantAsking(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secret: string,
): ParticipantAsking {
  const participant = participantOf(request, reply, config, secret);
  return { participant, cookies: viewerCookies(request) };
}

/** A viewer asking for a cached read, and the cookies that tell them apart in its tag. */
export interface ViewerAsking {
  viewer: Viewer;
  cookies: string;
}

/** The viewer asking, without handing a new visitor a cookie just for reading. */
export function viewerAsking(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secret: string,
): ViewerAsking {
  return {
    viewer: viewerOf(request, reply, config, secret),
    cookies: viewerCookies(request),
  };
}

/** A member's key as a participant (see `participantKey`). */
export const memberKey = (userId: number) => `user:${userId}`;

/**
 * Who a participant is, as one string: a heart notification stores it (so that a re-heart does
 * not notify twice), and memory keeps their own hearts under it.
 */
export function participantKey(participant: Participant): string {
  return "user" in participant
    ? memberKey(participant.user.id)
    : `visitor:${participant.visitorHash}`;
}
