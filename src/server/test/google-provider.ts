// A local OpenID provider standing in for Google, for a whole test file: it signs whatever claims
// the test asks for, and walks the browser's part of a sign-in.
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll } from "vitest";
import type { App } from "../app.ts";
import { GOOGLE_STATE_COOKIE } from "../features/auth/google.ts";

export function setupGoogleProvider() {
  const provider = new OAuth2Server();
  /** Claims the provider puts into the next tokens it signs (the nonce stays as it set it). */
  let claims: Record<string, unknown> = {};
  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    provider.issuer.url = `http://127.0.0.1:${provider.address().port}`;
    // Fires for the access token and then the id_token of each grant, hence `on`, not `once`.
    provider.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, claims));
  });
  afterAll(async () => {
    if (provider.listening) await provider.stop();
  });
  return {
    /** The provider's issuer URL, once it has started. */
    issuer: () => provider.issuer.url ?? "",
    /**
     * `start` (/auth/google with its query) on `app`, then the provider's authorize endpoint,
     * signing `tokenClaims`: Prism's first answer, its state cookie and the callback URL.
     */
    async authorize(
      app: App,
      start: string,
      tokenClaims: Record<string, unknown>,
      cookies: Record<string, string> = {},
    ) {
      const started = await app.inject({ method: "GET", url: start, cookies });
      const stateCookie = started.cookies.find((c) => c.name === GOOGLE_STATE_COOKIE);
      if (!stateCookie) throw new Error(`no state cookie: ${started.headers.location}`);
      claims = tokenClaims;
      const authorized = await fetch(String(started.headers.location), { redirect: "manual" });
      const callback = new URL(authorized.headers.get("location") ?? "");
      return { started, stateCookie, callback };
    },
  };
}
