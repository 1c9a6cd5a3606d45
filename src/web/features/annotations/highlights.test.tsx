// @vitest-environment jsdom
// Highlights are drawn from stored offsets (computed on the server's plain text): each range must
// cover exactly the stored quote, and only anchored annotations of the statuses asked for (a
// reader's page: approved ones) are drawn.
import { cleanup, render } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { Annotation, AnnotationStatus } from "../../../contract/annotations.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import { fragmentPlainText } from "../../test/dom-text.ts";
import { recordHighlights } from "../../test/highlights.ts";
import { APPROVED, useAnnotationHighlights } from "./highlights.ts";

const registry = recordHighlights();

afterEach(() => cleanup());

/** The prism's content as a section renders it, with the highlights hook on it. */
function Content(props: {
  prismId: number;
  html: string;
  annotations: Annotation[];
  statuses?: readonly AnnotationStatus[];
  enabled?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useAnnotationHighlights(
    ref,
    props.prismId,
    props.html,
    props.annotations,
    props.statuses ?? APPROVED,
    props.enabled ?? true,
  );
  return (
    <div
      ref={ref}
      data-prism={props.prismId}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the test's own sanitized fixtures
      dangerouslySetInnerHTML={{ __html: props.html }}
    />
  );
}

let nextId = 1;
/** An annotation as the server stores it: offsets of `quote` in htmlToPlainText(html). */
function stored(
  prismId: number,
  html: string,
  quote: string,
  extra: Partial<Annotation> = {},
): Annotation {
  const text = htmlToPlainText(html);
  const start = text.indexOf(quote);
  if (start < 0 || text.indexOf(quote, start + 1) >= 0) throw new Error(`ambiguous ${quote}`);
  return {
    id: nextId++,
    prismId,
    userId: null,
    annotatorName: "Reader",
    authorName: "Reader",
    annotationText: "A thought",
    selectedText: quote,
    selectionStart: start,
    selectionEnd: start + quote.length,
    status: "approved",
    orphaned: false,
    revision: 1,
    createdAt: new Date(0).toISOString(),
    reply: null,
    isOwn: false,
    canModerate: false,
    ...extra,
  };
}

/** What each highlighted range covers, read as the server reads HTML. */
function highlighted(): string[] {
  return (registry.get("prism-annotation")?.ranges ?? []).map(fragmentPlainText);
}

const html =
  '<p>I work <strong>best</strong> in the <em>morning</em>.</p><p></p><p>Ask me about <a href="https://example.org/" rel="noopener noreferrer nofollow ugc" target="_blank">R&amp;D</a>, café 🙂<br />or <strong><em>anything</em></strong> else.</p>\n<p>Thanks!</p>';

describe("annotation highlights", () => {
  it("cover exactly each approved annotation's stored quote", () => {
    const quotes = [
      "best in the morning",
      "morning.\nAsk me",
      "R&D, café 🙂\nor anything",
      "else.\nThanks!",
      "I",
    ];
    render(<Content prismId={1} html={html} annotations={quotes.map((q) => stored(1, html, q))} />);
    expect(highlighted()).toEqual(quotes);
  });

  it("leave out pending, rejected and orphaned annotations", () => {
    const annotations = [
      stored(1, html, "best", { status: "pending" }),
      stored(1, html, "morning", { status: "rejected" }),
      stored(1, html, "Ask me", { orphaned: true }),
      stored(1, html, "Thanks!"),
    ];
    render(<Content prismId={1} html={html} annotations={annotations} />);
    expect(highlighted()).toEqual(["Thanks!"]);
  });

  it("draw the statuses they are asked for, never a passage no longer in the text", () => {
    const annotations = [
      stored(1, html, "best", { status: "pending" }),
      stored(1, html, "morning", { status: "rejected" }),
      stored(1, html, "Ask me", { status: "pending", orphaned: true }),
      stored(1, html, "Thanks!"),
    ];
    const statuses = ["pending", "approved"] as const;
    render(<Content prismId={1} html={html} annotations={annotations} statuses={statuses} />);
    expect(highlighted()).toEqual(["best", "Thanks!"]);
  });

  it("skip offsets that no longer fit the text instead of drawing something else", () => {
    const beyond = { ...stored(1, html, "Thanks!"), selectionStart: 500, selectionEnd: 510 };
    render(<Content prismId={1} html={html} annotations={[beyond, stored(1, html, "café")]} />);
    expect(highlighted()).toEqual(["café"]);
  });

  it("draw nothing while highlights are off, and clear them when switched off", () => {
    const annotations = [stored(1, html, "best")];
    const view = render(
      <Content prismId={1} html={html} annotations={annotations} enabled={false} />,
    );
    expect(registry.has("prism-annotation")).toBe(false);
    view.rerender(<Content prismId={1} html={html} annotations={annotations} enabled />);
    expect(highlighted()).toEqual(["best"]);
    view.rerender(<Content prismId={1} html={html} annotations={annotations} enabled={false} />);
    expect(registry.has("prism-annotation")).toBe(false);
  });

  it("gather every open prism into one highlight, and forget a prism that closes", () => {
    const other = "<p>Second prism, <em>other</em> words.</p>";
    function Page({ both }: { both: boolean }) {
      return (
        <>
          <Content prismId={1} html={html} annotations={[stored(1, html, "morning")]} />
          {both ? (
            <Content prismId={2} html={other} annotations={[stored(2, other, "other words")]} />
          ) : null}
        </>
      );
    }
    const view = render(<Page both />);
    expect(highlighted().sort()).toEqual(["morning", "other words"]);
    view.rerender(<Page both={false} />);
    expect(highlighted()).toEqual(["morning"]);
    view.unmount();
    expect(registry.has("prism-annotation")).toBe(false);
  });

  it("follow the content when the prism is edited", () => {
    const edited = "<p>Rewritten: I work best at <strong>night</strong>.</p>";
    const view = render(
      <Content prismId={1} html={html} annotations={[stored(1, html, "morning")]} />,
    );
    view.rerender(
      <Content prismId={1} html={edited} annotations={[stored(1, edited, "best at night")]} />,
    );
    const ranges = registry.get("prism-annotation")?.ranges ?? [];
    expect(ranges.map(fragmentPlainText)).toEqual(["best at night"]);
    // The range points into the content on the page, not into the replaced DOM.
    expect(ranges[0]?.startContainer.isConnected).toBe(true);
  });
});
