// What a server-rendered page carries beside its markup: the data its queries were answered with,
// the stamp of the changes the server had seen when it asked, and when it rendered the page. A JSON block, never run as a
// script, so the strict Content Security Policy stands.
import type { DehydratedState, Query } from "@tanstack/react-query";

export const PAGE_DATA_ID = "prism-page-data";

export interface PageData {
  /** Where the server stood in the stream of changes (the live stream sends what came after). */
  stamp: string;
  queries: DehydratedState;
  /** When the server rendered the page (its times are written from then: lib/format). */
  renderedAt: number;
}

/** The data as a `<script type="application/json">`: no `<` in it can close the element. */
export function pageDataScript(data: PageData): string {
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return `<script type="application/json" id="${PAGE_DATA_ID}">${json}</script>`;
}

let rendered: PageData | null | undefined;

/** The data the server rendered this page with, if it did (read from the page once). */
export function renderedPageData(): PageData | null {
  if (rendered === undefined) {
    if (typeof document === "undefined") return null;
    const text = document.getElementById(PAGE_DATA_ID)?.textContent;
    rendered = text ? (JSON.parse(text) as PageData) : null;
  }
  return rendered;
}

let stampTaken = false;

/**
 * The stamp of the rendered page, for the tab's first live stream only: a later stream (after
 * signing in or out, or a lost connection) has data that the page's stamp does not describe.
 */
export function takeRenderedStamp(): string | null {
  if (stampTaken) return null;
  stampTaken = true;
  return renderedPageData()?.stamp ?? null;
}

/** Whether a query still holds the answer the page was rendered with (then it is not refetched). */
export function holdsRenderedAnswer(query: Query): boolean {
  const answer = renderedPageData()?.queries.queries.find((q) => q.queryHash === query.queryHash);
  return answer !== undefined && answer.state.dataUpdatedAt === query.state.dataUpdatedAt;
}
