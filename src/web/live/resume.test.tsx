// @vitest-environment jsdom
// A page the server rendered opens its live stream a moment later, against Prism's real server:
// whatever changed meanwhile is replayed to it, and it refetches only what those changes touch.
// Changes elsewhere on the site (another member's prism, another member's hearts) cost it nothing.
import { dehydrate, HydrationBoundary, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Annotation } from "../../contract/annotations.ts";
import type { HeartStatus, Prism } from "../../contract/prisms.ts";
import { isEvent, openStream } from "../../server/test/event-stream.ts";
import { useProfileAnnotations } from "../features/annotations/annotation-queries.ts";
import { useHeartStatus, usePrisms } from "../features/prisms/prism-queries.ts";
import { api } from "../lib/api.ts";
import { pageDataScript, renderedPageData } from "../lib/page-data.ts";
import { createQueryClient, queryKeys } from "../lib/query.ts";
import { type StreamInBrowser, useEventSource } from "../test/event-source.ts";
import { type BrowserSession, serveRealApp } from "../test/real-server.ts";
import { useLiveUpdates } from "./stream.ts";

const server = serveRealApp();
let ownerName: string;
let prism: Prism;
let otherPrism: Prism;
let visitor: BrowserSession;
let streams: StreamInBrowser[];
/** The paths of the requests the visitor's page made, in order. */
const fetched: string[] = [];

async function addPrism(browser: BrowserSession, title: string) {
  const created = await browser.json<Prism>("POST", "/api/prisms", {
    title,
    content: "<p>Mornings, mostly.</p>",
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function heartFromNewVisitor(prismId: number) {
  const hearted = await server.browser().json("POST", `/api/prisms/${prismId}/heart`);
  expect(hearted.status).toBe(200);
}

/** The stamp the server stands at, as it takes one for a page it renders. */
async function currentStamp() {
  const stream = await openStream(server.url);
  const ready = await stream.waitFor(isEvent("live.ready"));
  await stream.close();
  return (JSON.parse(ready.data ?? "{}") as { stamp: string }).stamp;
}

/**
 * A visitor's page of the owner's prisms, rendered by the server: the list, the prism's heart
 * count and its annotations; then, before the page opens its stream, another member adds a
 * prism and is hearted, and the owner's prism is hearted.
 */
beforeAll(async () => {
  const owner = await server.member("owner");
  ownerName = owner.username;
  prism = await addPrism(owner.browser, "When to call me");
  const other = await server.member("other");
  otherPrism = await addPrism(other.browser, "How I review");

  visitor = server.browser();
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    fetched.push(new URL(path, server.url).pathname);
    return visitor.fetch(input, init);
  }) as typeof fetch;
  const stamp = await currentStamp();
  const rendering = createQueryClient();
  await rendering.fetchQuery({
    queryKey: queryKeys.prisms(ownerName),
    queryFn: () => api.get<Prism[]>(`/api/prisms/${ownerName}`),
  });
  await rendering.fetchQuery({
    queryKey: queryKeys.heart(prism.id),
    queryFn: () => api.get<HeartStatus>(`/api/prisms/${prism.id}/heart`),
  });
  await rendering.fetchQuery({
    queryKey: queryKeys.annotations(prism.id),
    queryFn: () => api.get<Annotation[]>(`/api/prisms/${prism.id}/annotations`),
  });
  document.body.innerHTML = pageDataScript({
    stamp,
    queries: dehydrate(rendering),
    renderedAt: Date.now(),
  });
  expect(renderedPageData()?.stamp).toBe(stamp);

  await addPrism(other.browser, "What I read");
  await heartFromNewVisitor(otherPrism.id);
  await heartFromNewVisitor(prism.id);
  streams = useEventSource(server, visitor);
  fetched.length = 0;
});

afterEach(() => cleanup());

function OwnerPage() {
  useLiveUpdates(null);
  usePrisms(ownerName);
  useHeartStatus(prism.id);
  useProfileAnnotations([prism.id]);
  return null;
}

describe("a rendered page's first live stream", () => {
  it("refetches only the queries that the changes since the render touch", async () => {
    const queryClient = createQueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <HydrationBoundary state={renderedPageData()?.queries}>
          <OwnerPage />
        </HydrationBoundary>
      </QueryClientProvider>,
    );
    const stream = streams.at(-1);
    if (!stream) throw new Error("the page opened no stream");
    await stream.heard("live.ready");

    // The owner's prism was hearted: its count and the owner's list (which shows it) come anew.
    const heartPath = `/api/prisms/${prism.id}/heart`;
    const listPath = `/api/prisms/${ownerName}`;
    await waitFor(() => {
      expect(fetched).toContain(heartPath);
      expect(fetched).toContain(listPath);
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(queryClient.getQueryData<HeartStatus>(queryKeys.heart(prism.id))?.heartsCount).toBe(1);
    // Nothing else: neither the annotations, which did not change, nor anything of the other
    // member's.
    expect([...fetched].sort()).toEqual([listPath, heartPath].sort());
  });
});
