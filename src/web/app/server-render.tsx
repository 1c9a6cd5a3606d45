// The server's renderer of Prism's pages (built by Vite into its own bundle): the same routes and
// components as the browser, rendered to HTML with the data they ask for, and the head tags the
// page wrote (lib/page-head). The data is fetched through the server's own API (the `fetch` it is
// given), and goes into the page for hydration.
import { AsyncLocalStorage } from "node:async_hooks";
import { dehydrate, QueryClientProvider } from "@tanstack/react-query";
import { prerenderToNodeStream } from "react-dom/static";
import { Router } from "wouter";
import { type ApiTransport, setApiTransport } from "../lib/api.ts";
import { RenderedAt } from "../lib/format.tsx";
import { pageDataScript } from "../lib/page-data.ts";
import { SiteOrigin } from "../lib/page-head.tsx";
import { createQueryClient } from "../lib/query.ts";
import { AppRoutes, preloadPage } from "./routes.tsx";

export interface RenderedPage {
  /** The page's head tags (title, meta, links), for the document's head. */
  head: string;
  /** The markup that goes inside #root. */
  root: string;
  /** The JSON block with the page's data, for after #root. */
  data: string;
  /** The source modules of the code-split page shown (the server sends their scripts). */
  pages: string[];
}

const pageFetch = new AsyncLocalStorage<ApiTransport>();
setApiTransport((path, init) => {
  const fetchForPage = pageFetch.getStore();
  if (!fetchForPage) throw new Error(`No page is being rendered to fetch ${path} for`);
  return fetchForPage(path, init);
});

/**
 * The head tags (title, meta, links) React puts before the markup of a page rendered outside a
 * document: they go into the document's head, where the browser finds and keeps them.
 */
const HEAD_TAGS = /^(?:<(?:link|meta)\b[^>]*>|<title>[^<]*<\/title>)*/;

/** A page renders, asks for data, and renders again with it: a few rounds at most. */
const MAX_ROUNDS = 4;

async function renderOnce(
  url: string,
  { origin, renderedAt }: { origin: string; renderedAt: number },
  queryClient: ReturnType<typeof createQueryClient>,
) {
  let failure: unknown = null;
  const address = new URL(url, "http://page");
  const { prelude } = await prerenderToNodeStream(
    <QueryClientProvider client={queryClient}>
      <SiteOrigin value={origin}>
        <RenderedAt value={renderedAt}>
          <Router ssrPath={address.pathname} ssrSearch={address.search}>
            <AppRoutes />
          </Router>
        </RenderedAt>
      </SiteOrigin>
    </QueryClientProvider>,
    {
      // Every part inline, in order: no part is sent apart to be put in place by an inline
      // script, which the Content Security Policy forbids.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      // A part that fails here would be left for the browser to render: render none of it.
      onError(error) {
        failure ??= error;
      },
    },
  );
  if (failure) throw failure;
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(chunk as Buffer);
  const html = Buffer.concat(chunks).toString("utf8");
  const head = HEAD_TAGS.exec(html)?.[0] ?? "";
  return { head, root: html.slice(head.length) };
}

/**
 * The page at `url` (path and query) as HTML with its head and data and `stamp` (taken by the
 * server before the page's first request), its addresses under `origin`; or null when a request
 * it needs failed: the browser then renders it, as without a server. Throws when a component fails.
 */
export async function renderPage(
  url: string,
  { fetch, stamp, origin }: { fetch: ApiTransport; stamp: string; origin: string },
): Promise<RenderedPage | null> {
  const pages = await preloadPage(new URL(url, "http://page").pathname);
  const renderedAt = Date.now();
  return pageFetch.run(fetch, async () => {
    const queryClient = createQueryClient();
    const cache = queryClient.getQueryCache();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const { head, root } = await renderOnce(url, { origin, renderedAt }, queryClient);
      const queries = cache.getAll();
      if (queries.some((query) => query.state.status === "error")) return null;
      const wanted = queries.filter((query) => {
        const { enabled } = query.options as { enabled?: boolean | ((q: unknown) => boolean) };
        const on = typeof enabled === "function" ? enabled(query) : enabled !== false;
        return on && query.state.status === "pending" && query.state.fetchStatus === "idle";
      });
      if (wanted.length === 0) {
        const data = pageDataScript({ stamp, queries: dehydrate(queryClient), renderedAt });
        return { head, root, data, pages };
      }
      await Promise.allSettled(wanted.map((query) => query.fetch()));
    }
    return null;
  });
}
