// @vitest-environment jsdom
// The live stream of a page the server rendered, against Prism's real server: a change made any
// time after the render reaches the bell, even when the bell's code (which loads on demand, with
// the member menu) arrives after the stream has told the page of the change.
import { dehydrate, HydrationBoundary, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { type ComponentType, lazy, Suspense } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { NotificationCount } from "../../contract/notifications.ts";
import type { Prism } from "../../contract/prisms.ts";
import type { CurrentUser } from "../../contract/user.ts";
import { isEvent, openStream } from "../../server/test/event-stream.ts";
import { NotificationTray } from "../features/notifications/notification-tray.tsx";
import { api } from "../lib/api.ts";
import { pageDataScript, renderedPageData } from "../lib/page-data.ts";
import { createQueryClient, queryKeys } from "../lib/query.ts";
import { type StreamInBrowser, useEventSource } from "../test/event-source.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../test/real-server.ts";
import { useLiveUpdates } from "./stream.ts";

const server = serveRealApp();
let owner: BrowserSession;
let member: CurrentUser;
let prism: Prism;
let streams: StreamInBrowser[];

/**
 * The owner's page as the server renders it: the member, and no unread notifications, at the
 * stamp the server stood at before it asked.
 */
beforeAll(async () => {
  ({ browser: owner } = await server.member("owner"));
  const created = await owner.json<Prism>("POST", "/api/prisms", {
    title: "My best hours",
    content: "<p>Before noon, with the door closed.</p>",
  });
  expect(created.status).toBe(201);
  prism = created.body;

  const stream = await openStream(server.url);
  const ready = await stream.waitFor(isEvent("live.ready"));
  await stream.close();
  const { stamp } = JSON.parse(ready.data ?? "{}") as { stamp: string };

  useBrowser(owner);
  const rendering = createQueryClient();
  member = await rendering.fetchQuery({
    queryKey: queryKeys.currentUser,
    queryFn: () => api.get<CurrentUser>("/api/user"),
  });
  const unread = await rendering.fetchQuery({
    queryKey: queryKeys.unreadCount,
    queryFn: () => api.get<NotificationCount>("/api/notifications/unread-count"),
  });
  expect(unread.count).toBe(0);
  document.body.innerHTML = pageDataScript({
    stamp,
    queries: dehydrate(rendering),
    renderedAt: Date.now(),
  });
  expect(renderedPageData()?.stamp).toBe(stamp);

  streams = useEventSource(server, owner);
});

afterEach(() => cleanup());

function OpenPage() {
  useLiveUpdates(member.id);
  return null;
}

/**
 * The owner's rendered page, hydrated, with its stream open; the bell's code is held until
 * `loadBell` is called, as a slow network holds the member menu's.
 */
function openRenderedPage() {
  const queryClient = createQueryClient();
  let loadBell = () => {};
  const bellCode = new Promise<{ default: ComponentType }>((resolve) => {
    loadBell = () => resolve({ default: NotificationTray });
  });
  const Bell = lazy(() => bellCode);
  render(
    <QueryClientProvider client={queryClient}>
      <HydrationBoundary state={renderedPageData()?.queries}>
        <OpenPage />
        <Suspense fallback={null}>
          <Bell />
        </Suspense>
      </HydrationBoundary>
    </QueryClientProvider>,
  );
  const stream = streams.at(-1);
  if (!stream) throw new Error("the page opened no stream");
  /** Whether the page has learnt that its unread count is out of date. */
  const countOutOfDate = () =>
    waitFor(() =>
      expect(queryClient.getQueryState(queryKeys.unreadCount)?.isInvalidated).toBe(true),
    );
  return { stream, loadBell, countOutOfDate };
}

/** A new visitor hearts the owner's prism: the owner has one more unread notification. */
async function heartFromVisitor() {
  const hearted = await server.browser().json("POST", `/api/prisms/${prism.id}/heart`);
  expect(hearted.status).toBe(200);
  const unread = await owner.json<NotificationCount>("GET", "/api/notifications/unread-count");
  expect(unread.status).toBe(200);
  return unread.body.count;
}

describe("the live stream of a rendered page", () => {
  it("brings a notification announced before the bell's code has loaded to the bell", async () => {
    const page = openRenderedPage();
    await page.stream.heard("live.ready");

    const unread = await heartFromVisitor();
    await page.stream.heard("notification.created");
    await page.countOutOfDate();

    page.loadBell();
    await screen.findByRole("button", { name: `Notifications, ${unread} unread` });
  });

  it("brings a change made before the stream opened to the bell", async () => {
    const unread = await heartFromVisitor();

    const page = openRenderedPage();
    await page.stream.heard("live.ready");
    await page.countOutOfDate();

    page.loadBell();
    await screen.findByRole("button", { name: `Notifications, ${unread} unread` });
  });
});
