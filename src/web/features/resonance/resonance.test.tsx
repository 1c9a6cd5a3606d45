// @vitest-environment jsdom
// Resonance in the page, against Prism's real server: members respond to a prism's passages, the
// owner approves some, visitors heart and view; the owner's map then draws heat at the levels its
// legend names and says the same in words and in a list, a reader's page marks the top passage the
// prism list carries, the beacon sends the open prisms once shown and is counted, and "This week"
// shows its numbers.
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useRef } from "react";
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import type { Annotation } from "../../../contract/annotations.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Prism as PrismRow } from "../../../contract/prisms.ts";
import type { ThisWeek, TopPassage } from "../../../contract/resonance.ts";
import { recordHighlights } from "../../test/highlights.ts";
import { type BrowserSession, serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { ResonanceMap } from "./resonance-map.tsx";
import { useViewsBeacon } from "./resonance-queries.ts";
import { ThisWeekPanel } from "./this-week-panel.tsx";
import { TopPassageNote, useTopPassageHighlight } from "./top-passage.tsx";

const server = serveRealApp();

const registry = recordHighlights();

afterEach(() => cleanup());

const drawn = (name: string) => registry.get(name)?.ranges.map((range) => range.toString()) ?? [];

const HTML =
  "<p>I answer messages in <strong>batches</strong>.</p><p>I keep mornings for deep work. Ask me anything.</p>";
const TEXT = htmlToPlainText(HTML);
/** Where `quote` stands in the prism's plain text, as annotations count offsets. */
const at = (quote: string) => {
  const start = TEXT.indexOf(quote);
  if (start < 0) throw new Error(quote);
  return { start, end: start + quote.length };
};

/** A desktop Chrome's user agent: the server counts no views from programs (Node's fetch is one). */
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let owner: BrowserSession;
let ownerName: string;
/** Three members who respond to the owners' prisms. */
let readers: BrowserSession[];

beforeAll(async () => {
  ({ username: ownerName, browser: owner } = await server.member("owner"));
  readers = [];
  for (let i = 0; i < 3; i++) readers.push((await server.member("reader")).browser);
});

async function addPrism(browser: BrowserSession, title: string, content = HTML) {
  const created = await browser.json<PrismRow>("POST", "/api/prisms", { title, content });
  expect(created.status).toBe(201);
  return created.body;
}

/** `reader`'s response to `quote` of `prism`, with the plain-text offsets the server expects. */
async function respond(reader: BrowserSession, prism: PrismRow, quote: string) {
  const created = await reader.json<Annotation>("POST", "/api/annotations", {
    prismId: prism.id,
    selectedText: quote,
    selectionStart: at(quote).start,
    selectionEnd: at(quote).end,
    annotationText: `A thought on ${quote.trim()}`,
  });
  expect(created.status).toBe(201);
  return created.body;
}

/** `times` responses to `quote`, written by the readers in turn. */
async function respondTimes(prism: PrismRow, quote: string, times: number) {
  for (let i = 0; i < times; i++)
    await respond(readers[i % readers.length] as BrowserSession, prism, quote);
}

/**
 * A browser arriving on a page: its first read of the page (here the heart status the page asks
 * for) gives it the browser id the server signs, without which its views count nothing.
 */
async function arrive(browser: BrowserSession, prismId: number) {
  expect((await browser.fetch(`/api/prisms/${prismId}/heart`)).status).toBe(200);
}

/** The prisms `browser`'s page shows, told to the server as a desktop browser tells it. */
async function view(browser: BrowserSession, prismIds: number[]) {
  await arrive(browser, prismIds[0] ?? 0);
  const response = await browser.fetch("/api/prisms/views", {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": CHROME },
    body: JSON.stringify({ prismIds }),
  });
  expect(response.status).toBe(204);
}

function Prism({ prism, map, top }: { prism: PrismRow; map?: boolean; top?: TopPassage }) {
  const ref = useRef<HTMLDivElement>(null);
  useTopPassageHighlight(ref, prism.id, prism.content, top ?? null, true);
  return (
    <>
      <div
        ref={ref}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitized content
        dangerouslySetInnerHTML={{ __html: prism.content }}
      />
      {top ? <TopPassageNote top={top} /> : null}
      {map ? <ResonanceMap prism={prism} contentRef={ref} /> : null}
    </>
  );
}

describe("ResonanceMap", () => {
  it("draws each stretch at its level and says so in the legend, the sentence and the list", async () => {
    const prism = await addPrism(owner, "How I work");
    await respondTimes(prism, "I answer messages in batches", 2);
    await respondTimes(prism, " messages in batches", 3);
    await respondTimes(prism, "mornings", 1);
    await respondTimes(prism, "deep work", 3);
    await respondTimes(prism, "anything", 5);
    useBrowser(owner);
    renderWithQueries(<Prism prism={prism} map />);

    const summary = await screen.findByText(/drew responses/);
    expect(summary.textContent).toBe(
      "4 passages drew responses; the most, 5, on 'messages in batches'",
    );
    expect(screen.getByRole("region", { name: "Resonance" }).getAttribute("aria-describedby")).toBe(
      summary.id,
    );
    const legend = screen.getByRole("list", { name: "Legend: responses per stretch" });
    expect(
      within(legend)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["1", "2", "3–4", "5+"]);

    expect(drawn("prism-heat-1")).toEqual(["mornings"]);
    expect(drawn("prism-heat-2")).toEqual(["I answer"]);
    expect(drawn("prism-heat-3")).toEqual(["deep work"]);
    expect(drawn("prism-heat-4")).toEqual([" messages in batches", "anything"]);

    const passages = screen.getByRole("list", { name: "Passages and their responses" });
    const buttons = within(passages).getAllByRole("button");
    expect(buttons.map((button) => button.textContent)).toEqual([
      "‘I answer messages in batches’2–5 responses",
      "‘mornings’1 response",
      "‘deep work’3 responses",
      "‘anything’5 responses",
    ]);

    // The keyboard reaches each passage, which marks its stretch in the text.
    await userEvent.tab();
    expect(document.activeElement).toBe(buttons[0]);
    expect(drawn("prism-heat-focus")).toEqual(["I answer messages in batches"]);
    await userEvent.tab();
    expect(drawn("prism-heat-focus")).toEqual(["mornings"]);
  });

  it("shows the count of the stretch under the pointer", async () => {
    const prism = await addPrism(owner, "When I work");
    await respondTimes(prism, "deep work", 3);
    useBrowser(owner);
    const { container } = renderWithQueries(<Prism prism={prism} map />);
    await screen.findByText(/drew responses/);
    // jsdom lays nothing out: the stretch's box is given to it.
    const box = { left: 10, right: 90, top: 10, bottom: 30 } as DOMRect;
    // jsdom has no Range.getClientRects; this test lends it one, taken back after the test.
    Object.assign(Range.prototype, {
      getClientRects(this: Range) {
        return this.toString() === "deep work" ? [box] : [];
      },
    });
    onTestFinished(() => {
      delete (Range.prototype as Partial<Range>).getClientRects;
    });
    const content = container.firstElementChild as HTMLElement;
    fireEvent.mouseMove(content, { clientX: 50, clientY: 20 });
    expect((await screen.findByRole("tooltip")).textContent).toBe("3 responses");
    fireEvent.mouseMove(content, { clientX: 200, clientY: 20 });
    expect(screen.queryByRole("tooltip")).toBeNull();

    // A scroll event comes a frame after its scroll: one that arrives after the pointer was read
    // (the page scrolled before, by Tab or a link) keeps the count; a scroll since then, which
    // moves the words from under it, takes it away.
    fireEvent.mouseMove(content, { clientX: 50, clientY: 20 });
    expect((await screen.findByRole("tooltip")).textContent).toBe("3 responses");
    fireEvent.scroll(window);
    expect(screen.getByRole("tooltip").textContent).toBe("3 responses");
    window.scrollY = 120;
    onTestFinished(() => {
      window.scrollY = 0;
    });
    fireEvent.scroll(window);
    await waitFor(() => expect(screen.queryByRole("tooltip")).toBeNull());
  });

  it("says that no passage drew responses yet, and draws nothing", async () => {
    const prism = await addPrism(owner, "What I keep quiet");
    useBrowser(owner);
    renderWithQueries(<Prism prism={prism} map />);
    expect(await screen.findByText("No passage has drawn responses yet.")).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Passages and their responses" })).toBeNull();
    expect([...registry.keys()]).toEqual([]);
  });
});

describe("Top passage", () => {
  it("marks the stretch in the text and names it with how many people responded", async () => {
    const prism = await addPrism(owner, "How I answer");
    const quote = "I answer messages in batches";
    const topOf = async () => {
      const list = await server.browser().json<PrismRow[]>("GET", `/api/prisms/${ownerName}`);
      expect(list.status).toBe(200);
      return list.body.find((listed) => listed.id === prism.id)?.topPassage;
    };
    for (const [i, reader] of readers.entries()) {
      const response = await respond(reader, prism, quote);
      const approved = await owner.json("PUT", `/api/annotations/${response.id}/status`, {
        status: "approved",
      });
      expect(approved.status).toBe(200);
      // Two people are not yet enough; the third makes it the top passage.
      if (i < readers.length - 1) expect(await topOf()).toBeNull();
    }
    const top = await topOf();
    expect(top).toEqual({ ...at(quote), count: 3, text: quote });
    if (!top) throw new Error("no top passage");

    useBrowser(server.browser());
    renderWithQueries(<Prism prism={prism} top={top} />);
    expect(drawn("prism-top-passage")).toEqual([quote]);
    const note = screen.getByText("Top passage").parentElement;
    expect(note?.textContent).toBe("Top passageI answer messages in batches· 3 people responded");
  });
});

/** A page's open prism (its content, as the prism list names it) and the beacon it drives. */
function Beacon({ openId, send }: { openId: number | null; send: boolean }) {
  useViewsBeacon(openId, send);
  return openId === null ? null : <div id={`prism-${openId}-content`} />;
}

/**
 * The browser's IntersectionObserver, which jsdom lacks, as the page's observers meet it: each
 * observed element's observer, to be told how much of it is in view.
 */
function watchIntersections() {
  const watching = new Map<Element, IntersectionObserverCallback>();
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe(element: Element) {
        watching.set(element, this.callback);
      }
      disconnect() {
        for (const [element, callback] of watching) {
          if (callback === this.callback) watching.delete(element);
        }
      }
    },
  );
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  return {
    watched: () => [...watching.keys()].map((element) => element.id),
    /** Scrolls `id`'s element to `ratio` of it in view, on a screen as tall as the element. */
    show(id: string, ratio: number) {
      const element = document.getElementById(id);
      const callback = element && watching.get(element);
      if (!callback) throw new Error(`${id} is not watched`);
      const entry = {
        target: element,
        intersectionRatio: ratio,
        intersectionRect: { height: ratio * 100 },
        rootBounds: { height: 100 },
      } as unknown as IntersectionObserverEntry;
      callback([entry], {} as IntersectionObserver);
    },
  };
}

/** The owner's "This week", as the server tells it. */
async function weekOf(browser: BrowserSession) {
  const week = await browser.json<ThisWeek>("GET", "/api/user/this-week");
  expect(week.status).toBe(200);
  return week.body;
}

describe("useViewsBeacon", () => {
  it("sends the open prisms once half shown, together, with keepalive, and only when asked to", async () => {
    const { browser: shownOwner } = await server.member("shown");
    const [first, second, third] = [
      await addPrism(shownOwner, "First"),
      await addPrism(shownOwner, "Second"),
      await addPrism(shownOwner, "Third"),
    ] as [PrismRow, PrismRow, PrismRow];
    expect((await weekOf(shownOwner)).thisWeek).toMatchObject({ readers: 0, views: 0 });

    // A visitor's page, in a desktop browser (which sends its user agent): its requests recorded.
    const visitor = server.browser();
    await arrive(visitor, first.id);
    const requests: { path: string; init: RequestInit; answered: Promise<Response> }[] = [];
    globalThis.fetch = ((input: RequestInfo | URL, init: RequestInit = {}) => {
      const path =
        typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const headers = new Headers(init.headers);
      headers.set("user-agent", CHROME);
      const answered = visitor.fetch(input, { ...init, headers });
      requests.push({ path, init, answered });
      return answered;
    }) as typeof fetch;
    const sent = () => requests.map((r) => [r.path, r.init.method, r.init.body, r.init.keepalive]);
    const views = (...prismIds: number[]) => [
      "/api/prisms/views",
      "POST",
      JSON.stringify({ prismIds }),
      true,
    ];
    const viewport = watchIntersections();

    // Nothing is watched until the page may send, nor while no prism is open.
    const page = renderWithQueries(<Beacon openId={first.id} send={false} />);
    expect(viewport.watched()).toEqual([]);
    page.rerender(<Beacon openId={null} send />);
    expect(viewport.watched()).toEqual([]);
    // The first prism opened: a glimpse of it is not a read, half of it in view is.
    page.rerender(<Beacon openId={first.id} send />);
    viewport.show(`prism-${first.id}-content`, 0.2);
    expect(viewport.watched()).toEqual([`prism-${first.id}-content`]);
    viewport.show(`prism-${first.id}-content`, 0.5);
    expect(viewport.watched()).toEqual([]);
    // The second opened and shown within the second: both go in one beacon.
    page.rerender(<Beacon openId={second.id} send />);
    viewport.show(`prism-${second.id}-content`, 1);
    expect(requests).toEqual([]);
    await waitFor(() => expect(sent()).toEqual([views(first.id, second.id)]));
    expect((await requests[0]?.answered)?.status).toBe(204);
    // The first opened again counts nothing more; the third, opened but never shown, nothing yet.
    page.rerender(<Beacon openId={first.id} send />);
    expect(viewport.watched()).toEqual([]);
    page.rerender(<Beacon openId={third.id} send />);
    expect(viewport.watched()).toEqual([`prism-${third.id}-content`]);
    // Shown, then the reader leaves at once: it goes as they leave.
    viewport.show(`prism-${third.id}-content`, 0.6);
    window.dispatchEvent(new Event("pagehide"));
    expect(sent()).toEqual([views(first.id, second.id), views(third.id)]);
    expect((await requests[1]?.answered)?.status).toBe(204);
    page.unmount();
    expect(requests).toHaveLength(2);
    // One reader of the page, who read its three prisms.
    expect((await weekOf(shownOwner)).thisWeek).toMatchObject({ readers: 1, views: 3 });
  });
});

describe("ThisWeekPanel", () => {
  it("says a page has no readers yet, rather than showing rows of zeros", async () => {
    const { browser: newcomer } = await server.member("quiet-week");
    await addPrism(newcomer, "How I work");
    useBrowser(newcomer);
    renderWithQueries(<ThisWeekPanel onShowOnMap={vi.fn()} />);
    const panel = await screen.findByRole("region", { name: "This week" });
    await within(panel).findByText("No readers yet");
    expect(panel.querySelector("dl")).toBeNull();
  });

  it("shows this week against last, and opens a prism's most responded passage on the map", async () => {
    const { browser: weekOwner } = await server.member("week");
    const howIWork = await addPrism(weekOwner, "How I work");
    const whatIValue = await addPrism(weekOwner, "What I value", "<p>Honesty, mostly.</p>");
    await respondTimes(howIWork, "I answer", 4);
    for (let i = 0; i < 3; i++) {
      const hearted = await server.browser().json("POST", `/api/prisms/${howIWork.id}/heart`);
      expect(hearted.status).toBe(200);
    }
    // Six visitors read both prisms: six readers of the page, twelve reads.
    for (let i = 0; i < 6; i++) await view(server.browser(), [howIWork.id, whatIValue.id]);

    const onShowOnMap = vi.fn();
    useBrowser(weekOwner);
    renderWithQueries(<ThisWeekPanel onShowOnMap={onShowOnMap} />);
    const panel = await screen.findByRole("region", { name: "This week" });
    await within(panel).findByText("Views");
    const stats = [...panel.querySelectorAll("dl > div")].map((stat) => stat.textContent);
    // Everything happened today: last week, on a fresh server, had nothing.
    expect(stats).toEqual([
      "Views6readers · 12 readslast week 0 readers · 0 reads",
      "Hearts3last week 0",
      "Responses4last week 0",
    ]);
    expect(within(panel).getByText("I answer")).toBeTruthy();
    expect(within(panel).getByText("No responses yet")).toBeTruthy();
    expect(within(panel).getAllByRole("button")).toHaveLength(1);
    await userEvent.click(
      within(panel).getByRole("button", { name: "Resonance map of How I work" }),
    );
    expect(onShowOnMap).toHaveBeenCalledWith(howIWork.id);
  });
});
