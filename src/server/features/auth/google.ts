// Google sign-in over OpenID Connect: sends the browser to the provider, then signs in, links or creates the member.
import { eq, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as oidc from "openid-client";
import { z } from "zod";
import { isReservedUsername, limits } from "../../../contract/limits.ts";
import type { AppDeps } from "../../app.ts";
import type { Config } from "../../config.ts";
import type { Executor } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { sessionCookieOptions, setSessionCookie } from "../../plugins/session.ts";
import { findUserByUsername, markActive } from "./service.ts";
import { createSession, deleteSession, SESSION_COOKIE } from "./sessions.ts";

export const GOOGLE_STATE_COOKIE = "prism_google";
const STATE_PATH = "/auth/google";
const CALLBACK_PATH = "/auth/google/callback";
const STATE_MAX_AGE = 10 * 60;

type GoogleConfig = NonNullable<Config["google"]>;

/** The id_token claims we use; a bad picture URL is dropped rather than failing the sign-in. */
const claimsSchema = z.object({
  sub: z.string().min(1),
  email: z.email().max(limits.emailMax),
  email_verified: z.union([z.boolean(), z.literal("true").transform(() => true)]).catch(false),
  given_name: z.string().optional().catch(undefined),
  family_name: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  picture: z
    .url({ protocol: /^https?$/ })
    .max(limits.urlMax)
    .optional()
    .catch(undefined),
});
type GoogleProfile = z.infer<typeof claimsSchema>;

export const googleRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config, db }) => {
  const tags = ["auth"];
  const redirectUri = `${config.appOrigin}${CALLBACK_PATH}`;
  const stateCookie = {
    path: STATE_PATH,
    httpOnly: true,
    sameSite: "lax" as const,
    secure: sessionCookieOptions(config).secure,
  };

  // Discovered once, on first use; a failed discovery is forgotten so the next request retries.
  let discovered: Promise<oidc.Configuration> | undefined;
  const provider = (google: GoogleConfig) => {
    discovered ??= discover(google, config.production).catch((error) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  };

  const fail = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    request.log.warn({ err: error }, "Google sign-in failed");
    return reply.redirect("/auth/callback?error=google-auth-failed");
  };

  app.get(
    STATE_PATH,
    { schema: { tags, summary: "Start Google sign-in (redirects to the provider)" } },
    async (request, reply) => {
      if (!config.google) return reply.redirect("/auth/callback?error=google-not-configured");
      try {
        const client = await provider(config.google);
        const verifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        const url = oidc.buildAuthorizationUrl(client, {
          redirect_uri: redirectUri,
          scope: "openid email profile",
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
          state,
          nonce,
        });
        // All three are base64url, so "." separates them. They are useless without the
        // provider's code, so a plain HttpOnly cookie is enough.
        reply.setCookie(GOOGLE_STATE_COOKIE, [state, nonce, verifier].join("."), {
          ...stateCookie,
          maxAge: STATE_MAX_AGE,
        });
        return reply.redirect(url.href);
      } catch (error) {
        return fail(request, reply, error);
      }
    },
  );

  app.get(
    CALLBACK_PATH,
    { schema: { tags, summary: "Finish Google sign-in (the provider redirects here)" } },
    async (request, reply) => {
      reply.clearCookie(GOOGLE_STATE_COOKIE, stateCookie);
      if (!config.google) return reply.redirect("/auth/callback?error=google-not-configured");
      try {
        const [state, nonce, verifier, ...rest] = (
          request.cookies[GOOGLE_STATE_COOKIE] ?? ""
        ).split(".");
        if (!state || !nonce || !verifier || rest.length > 0) {
          throw new Error("missing or malformed state cookie");
        }
        const client = await provider(config.google);
        const currentUrl = new URL(redirectUri);
        currentUrl.search = new URL(request.url, config.appOrigin).search;
        const tokens = await oidc.authorizationCodeGrant(client, currentUrl, {
          pkceCodeVerifier: verifier,
          expectedState: state,
          expectedNonce: nonce,
        });
        const profile = claimsSchema.parse(tokens.claims());

        const token = await db.transaction(async (tx) => {
          const user = await findOrCreateMember(tx, profile);
          if (user.deactivatedAt) return null;
          await markActive(tx, user.id);
          return createSession(tx, user.id, request.headers["user-agent"]);
        });
        if (!token) return reply.redirect("/auth/callback?error=account-deactivated");

        // Rotation: whatever session the browser came with is ended.
        const old = request.cookies[SESSION_COOKIE];
        if (old) await deleteSession(db, old);
        setSessionCookie(reply, config, token);
        return reply.redirect("/auth/callback");
      } catch (error) {
        return fail(request, reply, error);
      }
    },
  );
};

function discover(google: GoogleConfig, production: boolean): Promise<oidc.Configuration> {
  const issuer = new URL(google.issuer);
  // openid-client refuses plain-http providers; the local test provider (oauth2-mock-server)
  // is http, so allow it outside production only.
  const insecure = issuer.protocol === "http:" && !production;
  return oidc.discovery(issuer, google.clientId, google.clientSecret, undefined, {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
  });
}

/** By Google id, else by verified e-mail (linking the account), else a new member. */
async function findOrCreateMember(db: Executor, profile: GoogleProfile): Promise<UserRow> {
  const [byGoogleId] = await db.select().from(users).where(eq(users.googleId, profile.sub));
  if (byGoogleId) return byGoogleId;

  const [byEmail] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${profile.email})`);
  if (byEmail) {
    // An unverified address proves nothing about who owns the existing account.
    if (!profile.email_verified) throw new Error("e-mail not verified; refusing to link");
    if (byEmail.googleId) throw new Error("account is linked to another Google account");
    if (byEmail.deactivatedAt) return byEmail;
    const [linked] = await db
      .update(users)
      .set({ googleId: profile.sub })
      .where(eq(users.id, byEmail.id))
      .returning();
    if (!linked) throw new Error("link returned no row");
    return linked;
  }

  const localPart = profile.email.slice(0, profile.email.lastIndexOf("@"));
  const [first, ...others] = (profile.name ?? "").trim().split(/\s+/);
  const name = (value: string | undefined) => value?.trim().slice(0, limits.nameMax) || undefined;
  const [created] = await db
    .insert(users)
    .values({
      username: await uniqueUsername(db, localPart),
      email: profile.email,
      firstName: name(profile.given_name) ?? name(first) ?? name(localPart) ?? "Member",
      lastName: name(profile.family_name) ?? name(others.join(" ")) ?? "Member",
      password: null,
      authProvider: "google",
      googleId: profile.sub,
      profileImageUrl: profile.picture ?? null,
      lastActiveAt: new Date(),
    })
    .returning();
  if (!created) throw new Error("insert returned no row");
  return created;
}

/** The e-mail's local part made into a valid username: "Ada.L+x" → "adalx", then "adalx-2", … */
export function usernameBase(localPart: string): string {
  const base = localPart
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, "")
    .slice(0, limits.usernameMax);
  return base.length < limits.usernameMin ? `${base}member` : base;
}

async function uniqueUsername(db: Executor, localPart: string): Promise<string> {
  const base = usernameBase(localPart);
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = base.slice(0, limits.usernameMax - suffix.length) + suffix;
    if (isReservedUsername(candidate)) continue;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
}
