// Anonymous visitors: a long-lived random `vid` cookie, known to the database only as an HMAC.
import { createHmac, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";

export const VISITOR_COOKIE = "vid";
const ONE_YEAR = 365 * 24 * 60 * 60;

/** The visitor hash of this browser, giving it a `vid` cookie first if it has none. */
export function visitorHash(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secret: string,
) {
  let vid = request.cookies[VISITOR_COOKIE];
  if (!vid || !/^[\w-]{16,64}$/.test(vid)) {
    vid = randomBytes(18).toString("base64url");
    request.cookies[VISITOR_COOKIE] = vid;
    reply.setCookie(VISITOR_COOKIE, vid, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: config.production && config.appOrigin.startsWith("https:"),
      maxAge: ONE_YEAR,
    });
  }
  return createHmac("sha256", secret).update(vid).digest("hex");
}
