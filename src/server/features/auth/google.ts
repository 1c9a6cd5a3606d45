// HTTP for Google sign-in over OpenID Connect: sends the browser to the provider, then signs in
// the member that google-account.ts finds or creates, or, started from Profile Settings, connects
// the Google account to the member signed in (`?connect=1`, after they gave their password) or
// confirms that member again (`?confirm=1`, a Google-only account before a sensitive change).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as oidc from "openid-client";
import { z } from "zod";
import { confirmIdentity, connectGoogle, signInWithGoogle } from "../../commands/auth.ts";
import { writer } from "../../commands/write.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { AppDeps } from "../../deps.ts";
import {
  browserOf,
  sessionCookieOptions,
  sessionToken,
  setSessionCookie,
} from "../../plugins/session.ts";
import { resolveSession } from "../../security/session-store.ts";
import { type GoogleProfile, GoogleRefusal, googleClaimsSchema } from "./google-account.ts";

export const GOOGLE_STATE_COOKIE = "prism_google";
const STATE_PATH = "/auth/google";
const CALLBACK_PATH = "/auth/google/callback";
const STATE_MAX_AGE = 10 * 60;

type GoogleConfig = NonNullable<Config["google"]>;
/** Signing in with Google, or connecting or confirming the member signed in (Profile Settings). */
type Mode = "signin" | "connect" | "confirm";

export const googleRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { config, db } = deps;
  const as = writer(deps);
  const tags = ["auth"];
  const redirectUri = `${config.appOrigin}${CALLBACK_PATH}`;
  const stateCookie = {
    path: STATE_PATH,
    httpOnly: true,
    sameSite: "lax" as const,
    secure: sessionCookieOptions(config).secure,
  };

  const provider = providerOf(config.production);

  app.get(
    STATE_PATH,
    {
      schema: {
        tags,
        summary:
          "Start Google sign-in; with connect=1 connect Google to the signed-in member, with confirm=1 confirm them",
        querystring: z.object({
          connect: z.literal("1").optional(),
          confirm: z.literal("1").optional(),
        }),
      },
    },
    async (request, reply) => {
      const { connect, confirm } = request.query;
      const mode: Mode = connect ? "connect" : confirm ? "confirm" : "signin";
      if (!config.google) return done(mode, reply, "google-not-configured");
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
        // All are base64url or a word, so "." separates them. They are useless without the
        // provider's code, so a plain HttpOnly cookie is enough.
        reply.setCookie(GOOGLE_STATE_COOKIE, [state, nonce, verifier, mode].join("."), {
          ...stateCookie,
          maxAge: STATE_MAX_AGE,
        });
        return reply.redirect(url.href);
      } catch (error) {
        return fail(request, reply, mode, error);
      }
    },
  );

  app.get(
    CALLBACK_PATH,
    { schema: { tags, summary: "Finish Google sign-in (the provider redirects here)" } },
    async (request, reply) => {
      reply.clearCookie(GOOGLE_STATE_COOKIE, stateCookie);
      const [state, nonce, verifier, given, ...rest] = (
        request.cookies[GOOGLE_STATE_COOKIE] ?? ""
      ).split(".");
      const mode: Mode = given === "connect" || given === "confirm" ? given : "signin";
      if (!config.google) return done(mode, reply, "google-not-configured");
      try {
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
        const profile = googleClaimsSchema.parse(tokens.claims());

        if (mode !== "signin") {
          await connectOrConfirm(db, as, request, mode, profile);
          return done(mode, reply);
        }

        const signedIn = await signInWithGoogle(as(null), profile, browserOf(request));
        if (!signedIn) return done(mode, reply, "account-deactivated");
        setSessionCookie(reply, config, signedIn.token);
        return done(mode, reply, undefined, signedIn.created);
      } catch (error) {
        return fail(request, reply, mode, error);
      }
    },
  );
};

/**
 * Where a flow ends: the callback page for sign-in (told when the sign-in created the account,
 * whose first screen is its own page), Profile Settings for a connection or a confirmation.
 */
function done(mode: Mode, reply: FastifyReply, code?: string, created = false) {
  return reply.redirect(
    mode === "signin"
      ? `/auth/callback${code ? `?error=${code}` : created ? "?welcome=1" : ""}`
      : `/profile?google=${code ?? (mode === "connect" ? "connected" : "confirmed")}`,
  );
}

function fail(request: FastifyRequest, reply: FastifyReply, mode: Mode, error: unknown) {
  if (error instanceof GoogleRefusal) return done(mode, reply, error.code);
  request.log.warn({ err: error }, "Google sign-in failed");
  return done(mode, reply, "google-auth-failed");
}

/** Connects the Google account to the member signed in, or confirms that member again. */
async function connectOrConfirm(
  db: Db,
  as: ReturnType<typeof writer>,
  request: FastifyRequest,
  mode: Exclude<Mode, "signin">,
  profile: GoogleProfile,
) {
  const token = sessionToken(request);
  const user = token ? await resolveSession(db, token) : null;
  if (!token || !user) throw new Error(`${mode} needs a signed-in member`);
  if (mode === "confirm") {
    if (user.googleId !== profile.sub) throw new GoogleRefusal("google-wrong-account");
    await confirmIdentity(as(user), token);
    return;
  }
  await connectGoogle(as(user), token, profile.sub);
  // The settings page this leads back to reads the member afresh.
  request.server.sessionCache.forgetUser(user.id);
}

/**
 * The provider's configuration, discovered once, on first use; a failed discovery is forgotten so
 * the next request retries.
 */
function providerOf(production: boolean): (google: GoogleConfig) => Promise<oidc.Configuration> {
  let discovered: Promise<oidc.Configuration> | undefined;
  return (google) => {
    discovered ??= discover(google, production).catch((error) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  };
}

function discover(google: GoogleConfig, production: boolean): Promise<oidc.Configuration> {
  const issuer = new URL(google.issuer);
  // openid-client refuses plain-http providers; the local test provider (oauth2-mock-server)
  // is http, so allow it outside production only.
  const insecure = issuer.protocol === "http:" && !production;
  return oidc.discovery(issuer, google.clientId, google.clientSecret, undefined, {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
  });
}
