// The browser entry: the query client and the routes (wouter, on the browser's address), mounted
// on #root. A page the server rendered is hydrated, with the data the server embedded beside it
// (no second fetch).
import { HydrationBoundary, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { RenderedAt } from "../lib/format.tsx";
import { renderedPageData } from "../lib/page-data.ts";
import { SiteOrigin } from "../lib/page-head.tsx";
import { createQueryClient } from "../lib/query.ts";
import { AppRoutes, preloadPage } from "./routes.tsx";
import { reloadOnStalePreloads } from "./stale-scripts.ts";
import "../styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("Prism needs a #root element");

reloadOnStalePreloads();

const rendered = renderedPageData();

const app = (
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <HydrationBoundary state={rendered?.queries}>
        <SiteOrigin value={window.location.origin}>
          <RenderedAt value={rendered?.renderedAt ?? null}>
            <AppRoutes />
          </RenderedAt>
        </SiteOrigin>
      </HydrationBoundary>
    </QueryClientProvider>
  </StrictMode>
);

// A rendered page is hydrated whole, once its code is here: no part of it waits to be hydrated.
// Code that will not load is the page's to report (its error boundary), as without a server.
if (rendered) {
  void preloadPage(window.location.pathname)
    .catch(() => undefined)
    .then(() => hydrateRoot(root, app));
} else createRoot(root).render(app);
