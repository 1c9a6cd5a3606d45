// Serves the built web app: hashed assets with long caching, every page path → index.html. When
// the build has the server renderer beside the web app, the page arrives rendered: its head
// (title, description, robots, canonical, Open Graph, Twitter: what link previews and crawlers
// that run no JavaScript read) and its body, with its data, fetched through this server's own API
// as the visitor (their cookies). Which status a path answers with is decided by the `pageStatus`
// option (features/seo).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { escapeHtml } from "../escape.ts";
import { notFound } from "../http-error.ts";

/** The status of a page path (no query string): 200, or 404 for a page that is not there. */
export type PageStatus = (path: string) => Promise<number>;

/** The server renderer's module (dist/server/server-render.js, built from the web app). */
interface ServerRenderer {
  renderPage(
    url: string,
    page: {
      fetch: (path: string, init: RequestInit) => Promise<Response>;
      stamp: string;
      origin: string;
    },
  ): Promise<{ head: string; root: string; data: string; pages: string[] } | null>;
}

const EMPTY_ROOT = '<div id="root"></div>';

interface WebPluginOptions {
  root: string;
  /** Whether the build's source maps are served (never in production). */
  sourceMaps: boolean;
  /** The site's origin, for the full addresses in a page's head. */
  origin: string;
  pageStatus?: PageStatus;
  /** Where the server stands in the changes, embedded in a rendered page (see cache/versions). */
  stamp?: () => string;
  /** Gives a new visitor their `vid` cookie with the page. */
  onPage?: (request: FastifyRequest, reply: FastifyReply) => void;
}

/** The built files, hashed assets with long caching. */
async function serveAssets(app: FastifyInstance, opts: WebPluginOptions) {
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    index: false,
    // Assets were compressed at build time: send the .br or .gz beside the file when the
    // browser takes it (with `Vary: Accept-Encoding`).
    preCompressed: true,
    allowedPath: (path) =>
      !path.startsWith("/.vite/") && (opts.sourceMaps || !path.endsWith(".map")),
    setHeaders(res, path) {
      if (path.includes("/assets/")) {
        res.header("cache-control", "public, max-age=31536000, immutable");
      }
    },
  });
}

/**
 * The script tags of the pages a render used. Which file holds each page's code comes from the
 * build's manifest: a rendered page comes with its page's script, so that it is here (and the
 * page hydrated) by the time the document has loaded.
 */
function pageScriptsOf(root: string): (pages: string[]) => string {
  const manifestPath = join(root, ".vite/manifest.json");
  const manifest: Record<string, { file: string }> = existsSync(manifestPath)
    ? JSON.parse(readFileSync(manifestPath, "utf8"))
    : {};
  return (pages) =>
    pages
      .map((page) => manifest[page]?.file)
      .filter((file) => file !== undefined)
      .map((file) => `<script type="module" crossorigin src="/${escapeHtml(file)}"></script>`)
      .join("");
}

export const webPlugin = fp(async (app: FastifyInstance, opts: WebPluginOptions) => {
  const indexPath = join(opts.root, "index.html");
  const built = existsSync(indexPath);
  if (built) await serveAssets(app, opts);
  const indexHtml = built ? readFileSync(indexPath, "utf8") : null;
  const rendererPath = join(opts.root, "../server/server-render.js");
  const pageScripts = pageScriptsOf(opts.root);
  const renderer: ServerRenderer | null =
    built && existsSync(rendererPath) ? await import(pathToFileURL(rendererPath).href) : null;

  /**
   * A request of the page being rendered, answered by this server as if the visitor made it: with
   * their cookies, and from their address (behind a trusted proxy, the one it forwarded), so that
   * the API's limits count the visitor, not this server's own address.
   */
  const fetchAs =
    (page: FastifyRequest) =>
    async (path: string, init: RequestInit): Promise<Response> => {
      if ((init.method ?? "GET") !== "GET") throw new Error(`A page only reads: ${path}`);
      const answer = await app.inject({
        method: "GET",
        url: path,
        headers: { cookie: page.headers.cookie ?? "", accept: "application/json" },
        remoteAddress: page.ip,
      });
      const type = answer.headers["content-type"];
      return new Response(answer.statusCode === 204 ? null : answer.body, {
        status: answer.statusCode,
        headers: typeof type === "string" ? { "content-type": type } : {},
      });
    };

  /** The page rendered on the server, or the empty shell the browser renders into. */
  async function renderPage(request: FastifyRequest, html: string): Promise<string> {
    if (!renderer) return html;
    try {
      const page = await renderer.renderPage(request.url, {
        fetch: fetchAs(request),
        stamp: opts.stamp?.() ?? "",
        origin: opts.origin,
      });
      if (!page) return html;
      return html
        .replace("</head>", () => `${page.head}${pageScripts(page.pages)}</head>`)
        .replace(EMPTY_ROOT, () => `<div id="root">${page.root}</div>${page.data}`);
    } catch (error) {
      request.log.warn({ err: error }, "page not rendered on the server: serving the shell");
      return html;
    }
  }

  async function statusOf(request: FastifyRequest, path: string): Promise<number> {
    try {
      return (await opts.pageStatus?.(path)) ?? 200;
    } catch (error) {
      // The page still works without it (the browser shows its own not-found page).
      request.log.warn({ err: error }, "page status unavailable: answering 200");
      return 200;
    }
  }

  const noRoute = (request: FastifyRequest): never => {
    throw notFound(`No route for ${request.method} ${request.url.split("?")[0] ?? "/"}`);
  };
  app.setNotFoundHandler(async (request) => noRoute(request));

  // Every other GET is a page of the app (a route, so that large pages go out compressed).
  app.get("/*", { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const isPage = !path.startsWith("/api/") && path !== "/api" && !/\.[a-z0-9]+$/i.test(path);
    if (!isPage || !indexHtml) return noRoute(request);
    opts.onPage?.(request, reply);
    // A page that is not there is rendered too: the not-found page, with its head.
    const [status, html] = await Promise.all([
      statusOf(request, path),
      renderPage(request, indexHtml),
    ]);
    // Every page is rendered for its visitor (their session, their `vid` and what it hearted or
    // wrote), and a new visitor's comes with their `vid`: no shared cache may keep one.
    return reply
      .code(status)
      .header("cache-control", "private, no-cache")
      .header("vary", "Cookie")
      .type("text/html; charset=utf-8")
      .send(html);
  });
});
