import { describe, expect, it } from "vitest";
import { quoteContext } from "../../../contract/plain-text.ts";
import { type Anchor, reanchor } from "./anchoring.ts";

function anchorIn(text: string, exact: string, occurrence = 0): Anchor {
  let start = -1;
  for (let i = 0; i <= occurrence; i++) start = text.indexOf(exact, start + 1);
  if (start < 0) throw new Error("quote not in text");
  const end = start + exact.length;
  return { exact, start, end, ...quoteContext(text, start, end) };
}

const original =
  "I give feedback in writing first, then offer to talk.\nWriting forces me to separate what I observed from what I inferred.";

describe("reanchor", () => {
  it("keeps the offsets when the text there is unchanged", () => {
    const anchor = anchorIn(original, "separate what I observed");
    const edited = `${original} A new closing line.`;
    expect(reanchor(anchor, edited)).toMatchObject({ start: anchor.start, end: anchor.end });
  });

  it("follows a passage that moved", () => {
    const anchor = anchorIn(original, "separate what I observed");
    const edited = `A brand new opening paragraph goes here.\n${original}`;
    const placed = reanchor(anchor, edited);
    expect(placed && edited.slice(placed.start, placed.end)).toBe("separate what I observed");
    expect(placed?.start).toBe(anchor.start + "A brand new opening paragraph goes here.\n".length);
  });

  it("chooses among repeated quotes by context, not by the first occurrence", () => {
    const text = "Be kind. Teams thrive when people are kind. Be kind, always.";
    const anchor = anchorIn(text, "Be kind", 1);
    const edited = `Intro. ${text}`;
    const placed = reanchor(anchor, edited);
    expect(placed?.start).toBe(edited.lastIndexOf("Be kind"));
  });

  it("finds a passage that was changed a little around and inside", () => {
    const anchor = anchorIn(original, "separate what I observed from what I inferred");
    const edited =
      "I give feedback in writing first, then I offer to talk.\nWriting forces me to separate what I saw from what I inferred.";
    const placed = reanchor(anchor, edited);
    expect(placed).not.toBeNull();
    expect(edited.slice(placed?.start, placed?.end)).toMatch(
      /separate what I saw from what I inferred/,
    );
  });

  it("orphans a passage that was deleted instead of misplacing it", () => {
    const anchor = anchorIn(original, "separate what I observed from what I inferred");
    const edited =
      "I give feedback in writing first, then offer to talk.\nThat is all there is to it.";
    expect(reanchor(anchor, edited)).toBeNull();
  });

  it("orphans rather than anchoring a short quote to a weak look-alike", () => {
    const anchor = anchorIn("I love long walks.", "long walks");
    expect(reanchor(anchor, "Short talks are fine with me.")).toBeNull();
  });

  it("updates the stored context to the new surroundings", () => {
    const anchor = anchorIn(original, "offer to talk");
    const edited = original.replace(
      "I give feedback in writing first, then",
      "Usually I write first and then",
    );
    const placed = reanchor(anchor, edited);
    expect(placed?.prefix.endsWith("Usually I write first and then ")).toBe(true);
  });
});
