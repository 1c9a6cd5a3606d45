// @vitest-environment jsdom
// Resonance in the page, against the API's contract (src/contract/resonance.ts): the owner's map
// draws heat at the levels its legend names and says the same in words and in a list, a reader's
// page marks the top passage, the beacon goes once, and "This week" shows its numbers.
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useRef } from "react";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import type { Resonance, ThisWeek, TopPassage } from "../../../contract/resonance.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { ResonanceMap } from "./resonance-map.tsx";
import { useViewsBeacon } from "./resonance-queries.ts";
import { ThisWeekPanel } from "./this-week-panel.tsx";
import { TopPassageNote, useTopPassageHighlight } from "./top-passage.tsx";

// jsdom has no CSS Custom Highlight API: a registry that keeps what it is given stands in for it.
class RecordedHighlight {
  readonly ranges: Range[];
  constructor(...ranges: Range[]) {
    this.ranges = ranges;
  }
}
let registry: Map<string, RecordedHighlight>;
/** What the page asked the server, and what the stand-in server answers each path. */
let requests: { path: string; init: RequestInit }[];
let answers: Record<string, unknown>;

beforeEach(() => {
  registry = new Map();
  requests = [];
  answers = {};
  vi.stubGlobal("Highlight", RecordedHighlight);
  vi.stubGlobal("CSS", { highlights: registry });
  vi.stubGlobal("fetch", async (path: string, init: RequestInit) => {
    requests.push({ path, init });
    const answer = answers[path];
    if (answer === undefined) return new Response(null, { status: 204 });
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const drawn = (name: string) => registry.get(name)?.ranges.map((range) => range.toString()) ?? [];

const HTML =
  "<p>I answer messages in <strong>batches</strong>.</p><p>I keep mornings for deep work. Ask me anything.</p>";
const TEXT = htmlToPlainText(HTML);
const at = (quote: string, count: number) => {
  const start = TEXT.indexOf(quote);
  if (start < 0) throw new Error(quote);
  return { start, end: start + quote.length, count };
};

function Prism({ id, map, top }: { id: number; map?: boolean; top?: TopPassage }) {
  const ref = useRef<HTMLDivElement>(null);
  useTopPassageHighlight(ref, id, HTML, top ?? null, true);
  return (
    <>
      <div
        ref={ref}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the test's own fixture
        dangerouslySetInnerHTML={{ __html: HTML }}
      />
      {top ? <TopPassageNote top={top} /> : null}
      {map ? (
        <ResonanceMap prism={{ id, title: "How I work", content: HTML }} contentRef={ref} />
      ) : null}
    </>
  );
}

const days = (count: number) => [{ day: "2026-11-24", count }];

describe("ResonanceMap", () => {
  it("draws each stretch at its level and says so in the legend, the sentence and the list", async () => {
    const resonance: Resonance = {
      segments: [
        at("I answer", 2),
        at(" messages in batches", 5),
        at("mornings", 1),
        at("deep work", 3),
        at("anything", 5),
      ],
      hearts: days(0),
      views: days(0),
    };
    answers["/api/prisms/7/resonance"] = resonance;
    renderWithQueries(<Prism id={7} map />);

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
    answers["/api/prisms/8/resonance"] = {
      segments: [at("deep work", 3)],
      hearts: days(0),
      views: days(0),
    } satisfies Resonance;
    const { container } = renderWithQueries(<Prism id={8} map />);
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
  });

  it("says that no passage drew responses yet, and draws nothing", async () => {
    answers["/api/prisms/9/resonance"] = { segments: [], hearts: [], views: [] };
    renderWithQueries(<Prism id={9} map />);
    expect(await screen.findByText("No passage has drawn responses yet.")).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Passages and their responses" })).toBeNull();
    expect([...registry.keys()]).toEqual([]);
  });
});

describe("Top passage", () => {
  it("marks the stretch in the text and names it with how many people responded", () => {
    const top = { ...at("I answer messages in batches", 3), text: "I answer messages in batches" };
    renderWithQueries(<Prism id={10} top={top} />);
    expect(drawn("prism-top-passage")).toEqual(["I answer messages in batches"]);
    const note = screen.getByText("Top passage").parentElement;
    expect(note?.textContent).toBe("Top passageI answer messages in batches· 3 people responded");
  });
});

function Beacon({ ids, send }: { ids: number[] | undefined; send: boolean }) {
  useViewsBeacon(ids, send);
  return null;
}

describe("useViewsBeacon", () => {
  it("sends the prisms shown once, with keepalive, and only when asked to", async () => {
    const view = renderWithQueries(<Beacon ids={undefined} send />);
    view.rerender(<Beacon ids={[3, 4]} send={false} />);
    expect(requests).toEqual([]);
    view.rerender(<Beacon ids={[3, 4]} send />);
    view.rerender(<Beacon ids={[3, 4, 5]} send />);
    expect(requests.map((r) => [r.path, r.init.method, r.init.body, r.init.keepalive])).toEqual([
      ["/api/prisms/views", "POST", JSON.stringify({ prismIds: [3, 4] }), true],
    ]);
  });
});

describe("ThisWeekPanel", () => {
  it("shows this week against last, and opens a prism's most responded passage on the map", async () => {
    answers["/api/user/this-week"] = {
      thisWeek: { views: 12, hearts: 3, responses: 4 },
      lastWeek: { views: 8, hearts: 0, responses: 1 },
      prisms: [
        {
          id: 21,
          title: "How I work",
          mostResponded: { start: 0, end: 8, text: "I answer", count: 4 },
        },
        { id: 22, title: "What I value", mostResponded: null },
      ],
    } satisfies ThisWeek;
    const onShowOnMap = vi.fn();
    renderWithQueries(<ThisWeekPanel onShowOnMap={onShowOnMap} />);
    const panel = await screen.findByRole("region", { name: "This week" });
    await within(panel).findByText("Views");
    const stats = [...panel.querySelectorAll("dl > div")].map((stat) => stat.textContent);
    expect(stats).toEqual(["Views12last week 8", "Hearts3last week 0", "Responses4last week 1"]);
    expect(within(panel).getByText("No responses yet")).toBeTruthy();
    expect(within(panel).getAllByRole("button")).toHaveLength(1);
    await userEvent.click(
      within(panel).getByRole("button", { name: "Resonance map of How I work" }),
    );
    expect(onShowOnMap).toHaveBeenCalledWith(21);
  });
});
