// Component tests talk to Prism's real server: its app on a fresh in-memory database (a copy of the
// run's migrated one), in the Node process the web project's global setup starts (the server
// tests' app-host.ts), listening on a port of this machine. The page's `fetch` is pointed at it
// the way a browser's would be: relative paths resolve to the server, writes carry
// the page's Origin, and cookies (session, visitor id) are kept between requests. Nothing of
// Prism's own API layer is replaced.
import { afterAll, beforeAll, inject } from "vitest";
import { APP_HOST } from "../../server/test/provided.ts";

/** The page's origin: jsdom's default location, and the app's APP_ORIGIN. */
export const PAGE_ORIGIN = "http://localhost:3000";

const nativeFetch = globalThis.fetch;

/** One browser's cookie jar, and a fetch that sends it (and keeps what the server sets). */
export class BrowserSession {
  private readonly jar = new Map<string, string>();
  private held: Promise<void> | null = null;

  constructor(private readonly server: { url: string }) {}

  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /**
   * Holds every request until the returned function is called: the test can then see what a
   * component shows while its request is on the wire, without timing anything.
   */
  hold(): () => void {
    let release = () => {};
    this.held = new Promise<void>((resolve) => {
      release = () => {
        this.held = null;
        resolve();
      };
    });
    return release;
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const path = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(path, this.server.url);
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    // A browser sends its page's Origin with every write.
    if (method !== "GET" && method !== "HEAD") headers.set("origin", PAGE_ORIGIN);
    const cookie = this.cookieHeader();
    if (cookie) headers.set("cookie", cookie);
    if (this.held) await this.held;
    // The page's AbortSignal belongs to the DOM environment and Node's fetch takes only its own:
    // an abort rejects the page's promise as a browser would, and the request itself runs out.
    const signal = init.signal;
    const response = await new Promise<Response>((resolve, reject) => {
      const abort = () => reject(new DOMException("The operation was aborted.", "AbortError"));
      if (signal?.aborted) return abort();
      signal?.addEventListener("abort", abort, { once: true });
      nativeFetch(url, { method, headers, body: init.body, redirect: "manual" }).then(
        resolve,
        reject,
      );
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(/;\s*/);
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const expired = attributes.some(
        (a) =>
          /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()),
      );
      if (expired) this.jar.delete(pair.slice(0, at));
      else this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };

  /** A JSON request straight to the server, for arranging data and reading it back. */
  async json<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await this.fetch(path, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }
}

export interface RealServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** A new browser with an empty cookie jar. */
  browser(): BrowserSession;
  /** Registers a new member through the API; the returned browser is signed in as them. */
  member(prefix?: string): Promise<{ username: string; browser: BrowserSession }>;
}

let members = 0;

/**
 * Prism's app on a fresh database, listening on a free port for the whole test file; `settings`
 * are further environment variables of its configuration (SMTP_URL, GOOGLE_CLIENT_ID, …).
 */
export function serveRealApp(settings: Record<string, string> = {}): RealServer {
  const server: RealServer = {
    url: "",
    browser: () => new BrowserSession(server),
    async member(prefix = "member") {
      members += 1;
      const username = `${prefix}_${process.pid}_${members}`;
      const browser = server.browser();
      const registered = await browser.json("POST", "/api/register", {
        username,
        email: `${username}@example.com`,
        firstName: "Robin",
        lastName: "Quill",
        password: "component-test-password",
      });
      if (registered.status !== 201)
        throw new Error(`registering ${username}: ${JSON.stringify(registered)}`);
      return { username, browser };
    },
  };
  let id: number | undefined;
  beforeAll(async () => {
    const response = await nativeFetch(`${inject(APP_HOST)}/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ origin: PAGE_ORIGIN, settings }),
    });
    if (response.status !== 201) throw new Error(`starting the app: ${await response.text()}`);
    const started = (await response.json()) as { id: number; port: number };
    id = started.id;
    server.url = `http://127.0.0.1:${started.port}`;
  });
  afterAll(async () => {
    globalThis.fetch = nativeFetch;
    if (id !== undefined) await nativeFetch(`${inject(APP_HOST)}/apps/${id}`, { method: "DELETE" });
  });
  return server;
}

/** Makes `browser` the one whose fetch the components under test use. */
export function useBrowser(browser: BrowserSession) {
  globalThis.fetch = browser.fetch as typeof fetch;
}
