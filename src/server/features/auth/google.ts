// HTTP for Google sign-in over OpenID Connect: sends the browser to the provider, then signs in
// the member that google-account.ts finds, links or creates.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as oidc from "openid-client";
import type { AppDeps } from "../../app.ts";
import type { Config } from "../../config.ts";
import { sessionCookieOptions, startSession } from "../../plugins/session.ts";
import { createSession } from "../../plugins/session-store.ts";
import { findOrCreateMember, googleClaimsSchema } from "./google-account.ts";
import { markActive } from "./service.ts";

export const GOOGLE_STATE_COOKIE = "prism_google";
const STATE_PATH = "/auth/google";
const CALLBACK_PATH = "/auth/google/callback";
const STATE_MAX_AGE = 10 * 60;

type GoogleConfig = NonNullable<Config["google"]>;

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
        const profile = googleClaimsSchema.parse(tokens.claims());

        const token = await db.transaction(async (tx) => {
          const user = await findOrCreateMember(tx, profile);
          if (user.deactivatedAt) return null;
          await markActive(tx, user.id);
          return createSession(tx, user.id, request.headers["user-agent"]);
        });
        if (!token) return reply.redirect("/auth/callback?error=account-deactivated");
        await startSession(db, request, reply, config, token);
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
