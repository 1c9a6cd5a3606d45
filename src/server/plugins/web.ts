// Serves the built web app: hashed assets with long caching, every page path → index.html with
// the page's head (title, description, robots, canonical, Open Graph, Twitter) written in, so
// that link previews work for crawlers that run no JavaScript. Which head a path gets is decided
// by the `renderHead` option (features/seo); this plugin only does the string work. When the
// build has the server renderer beside the web app, the page's body arrives rendered too, with
// its data, fetched through this server's own API as the visitor (their cookies).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { escapeHtml } from "../escape.ts";
import { notFound } from "../http-error.ts";

/** One page's head, as plain text: the plugin escapes every value it writes. */
export interface PageHead {
  title: string;
  description: string;
  robots: string;
  canonical?: string;
  /** Open Graph (`property`) and Twitter (`name`) tags, written in this order. */
  meta?: ({ property: string; content: string } | { name: string; content: string })[];
}

export interface RenderedHead {
  status: number;
  head: PageHead;
}

/** The head and status of a page path (no query string). */
export type RenderHead = (path: string) => Promise<RenderedHead>;

/** The server renderer's module (dist/server/server-render.js, built from the web app). */
interface ServerRenderer {
  renderPage(
    url: string,
    fetch: (path: string, init: RequestInit) => Promise<Response>,
    stamp: string,
  ): Promise<{ root: string; data: string; pages: string[] } | null>;
}

const EMPTY_ROOT = '<div id="root"></div>';

interface WebPluginOptions {
  root: string;
  /** Whether the build's source maps are served (never in production). */
  sourceMaps: boolean;
  renderHead?: RenderHead;
  /** Where the server stands in the changes, embedded in a rendered page (see live/versions). */
  stamp?: () => string;
  /** Gives a new visitor their `vid` cookie with the page. */
  onPage?: (request: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * index.html with the page's head: the existing title, description and robots tags are replaced
 * (added when missing); canonical, Open Graph and Twitter tags go before `</head>`.
 */
function injectHead(html: string, head: PageHead): string {
  const added: string[] = [];
  // Replacement callbacks, never replacement strings: user text may contain `$&` and friends.
  const put = (text: string, pattern: RegExp, tag: string) => {
    if (pattern.test(text)) return text.replace(pattern, () => tag);
    added.push(tag);
    return text;
  };
  let out = put(
    html,
    /<title\b[^>]*>[\s\S]*?<\/title>/i,
    `<title>${escapeHtml(head.title)}</title>`,
  );
  out = put(
    out,
    /<meta\s+name=["']description["'][^>]*>/i,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
  );
  out = put(
    out,
    /<meta\s+name=["']robots["'][^>]*>/i,
    `<meta name="robots" content="${escapeHtml(head.robots)}" />`,
  );
  if (head.canonical) {
    added.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`);
  }
  for (const tag of head.meta ?? []) {
    const [attribute, key] = "property" in tag ? ["property", tag.property] : ["name", tag.name];
    added.push(`<meta ${attribute}="${escapeHtml(key)}" content="${escapeHtml(tag.content)}" />`);
  }
  const end = out.search(/<\/head>/i);
  if (end < 0 || added.length === 0) return out;
  return `${out.slice(0, end)}${added.map((tag) => `  ${tag}\n  `).join("")}${out.slice(end)}`;
}

export const webPlugin = fp(async (app: FastifyInstance, opts: WebPluginOptions) => {
  const indexPath = join(opts.root, "index.html");
  const built = existsSync(indexPath);
  if (built) {
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
  const indexHtml = built ? readFileSync(indexPath, "utf8") : null;
  const rendererPath = join(opts.root, "../server/server-render.js");
  const manifestPath = join(opts.root, ".vite/manifest.json");
  // Which file holds each page's code: a rendered page comes with its page's script, so that
  // it is here (and the page hydrated) by the time the document has loaded.
  const manifest: Record<string, { file: string }> = existsSync(manifestPath)
    ? JSON.parse(readFileSync(manifestPath, "utf8"))
    : {};
  const pageScripts = (pages: string[]) =>
    pages
      .map((page) => manifest[page]?.file)
      .filter((file) => file !== undefined)
      .map((file) => `<script type="module" crossorigin src="/${escapeHtml(file)}"></script>`)
      .join("");
  const renderer: ServerRenderer | null =
    built && existsSync(rendererPath) ? await import(pathToFileURL(rendererPath).href) : null;

  /** A request of the page being rendered, answered by this server as if the visitor made it. */
  const fetchAs =
    (page: FastifyRequest) =>
    async (path: string, init: RequestInit): Promise<Response> => {
      if ((init.method ?? "GET") !== "GET") throw new Error(`A page only reads: ${path}`);
      const answer = await app.inject({
        method: "GET",
        url: path,
        headers: { cookie: page.headers.cookie ?? "", accept: "application/json" },
      });
      const type = answer.headers["content-type"];
      return new Response(answer.statusCode === 204 ? null : answer.body, {
        status: answer.statusCode,
        headers: typeof type === "string" ? { "content-type": type } : {},
      });
    };

  /** The page's body rendered on the server, or the empty shell the browser renders into. */
  async function renderBody(request: FastifyRequest, html: string): Promise<string> {
    if (!renderer) return html;
    try {
      const page = await renderer.renderPage(request.url, fetchAs(request), opts.stamp?.() ?? "");
      if (!page) return html;
      return html
        .replace("</head>", () => `${pageScripts(page.pages)}</head>`)
        .replace(EMPTY_ROOT, () => `<div id="root">${page.root}</div>${page.data}`);
    } catch (error) {
      request.log.warn({ err: error }, "page not rendered on the server: serving the shell");
      return html;
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
    let status = 200;
    let html = indexHtml;
    if (opts.renderHead) {
      try {
        const page = await opts.renderHead(path);
        status = page.status;
        html = injectHead(indexHtml, page.head);
      } catch (error) {
        // The shell still works without its metadata (the SPA sets it, and shows its own errors).
        request.log.warn({ err: error }, "page head unavailable: serving the plain shell");
      }
    }
    if (status === 200) html = await renderBody(request, html);
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
