import { describe, expect, it } from "vitest";
import { quoteContext } from "../../../contract/plain-text.ts";
import {
  ANCHORING_WORK_BUDGET,
  type Anchor,
  boundedDistance,
  reanchor,
  WorkBudget,
} from "./anchoring.ts";

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

  it("follows a long passage reworded inside and at its start", () => {
    const passage = `${original} `.repeat(8).slice(0, 600);
    const text = `Opening words.\n${passage}\nClosing words.`;
    const anchor = anchorIn(text, passage);
    const reworded = passage
      .replace("I give feedback", "I give my feedback")
      .replace("what I inferred", "what I guessed");
    const edited = `A new first line.\n${text.replace(passage, reworded)}`;
    const placed = reanchor(anchor, edited);
    expect(placed && edited.slice(placed.start, placed.end)).toBe(reworded);
  });
});

/** A made-up prism text of about `length` characters in sentences of everyday words. */
function prose(length: number): string {
  const words = ["we", "write", "first", "then", "talk", "about", "what", "matters", "most"];
  let text = "";
  for (let i = 0; text.length < length; i++) {
    text += `${words[(i * 7 + (i >> 3)) % words.length]}${i % 11 === 10 ? ".\n" : " "}`;
  }
  return text;
}

describe("reanchor's bounded work", () => {
  /** Plain edit distance, for comparison. */
  function levenshtein(a: string, b: string): number {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) {
        next[j] = Math.min(
          (row[j] as number) + 1,
          (next[j - 1] as number) + 1,
          (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
      }
      row = next;
    }
    return row[b.length] as number;
  }

  it("measures edit distance up to a bound exactly, and only 'more' beyond it", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = () => Array.from({ length: random(12) }, () => "abc"[random(3)]).join("");
    for (let n = 0; n < 3000; n++) {
      const [a, b, max] = [word(), word(), random(6)];
      const exact = levenshtein(a, b);
      expect(boundedDistance(a, b, max), `${a} ${b} ${max}`).toBe(exact <= max ? exact : max + 1);
    }
  });

  it("follows 100 passages, one of 1,000 characters, through an edited 20 KB prism within one budget", () => {
    const text = prose(20_000);
    const anchors = [1000, ...Array.from({ length: 99 }, (_, i) => 20 + (i % 60))].map(
      (length, i) => {
        const start = i === 0 ? 500 : 2000 + i * 170;
        return {
          exact: text.slice(start, start + length),
          start,
          end: start + length,
          ...quoteContext(text, start, start + length),
        };
      },
    );
    // Every 300 characters: a word inserted and a letter changed.
    let edited = "";
    for (let at = 0; at < text.length; at += 300) {
      edited += `${text.slice(at, at + 300).replace("t", "T")} new `;
    }
    const budget = new WorkBudget();
    const placed = anchors.map((anchor) => reanchor(anchor, edited, budget));
    expect(placed.filter((p) => p === null)).toHaveLength(0);
    expect(budget.remaining).toBeGreaterThan(0);
    const long = placed[0];
    expect(long && edited.slice(long.start, long.end).length).toBeGreaterThan(990);
  });

  it("spends no more than the budget on repetitive text, then orphans instead of searching", () => {
    const text = "ab".repeat(25_000);
    const quote = `${"ab".repeat(16)}x`;
    const budget = new WorkBudget();
    let orphaned = 0;
    for (let i = 0; i < 500; i++) {
      const anchor = { exact: quote, start: 10, end: 43, prefix: "ab", suffix: "ba" };
      if (reanchor(anchor, text, budget) === null) orphaned += 1;
    }
    expect(budget.remaining).toBeGreaterThanOrEqual(0);
    expect(budget.remaining).toBeLessThan(ANCHORING_WORK_BUDGET / 10);
    expect(orphaned).toBeGreaterThan(0);
    // A passage still at its offsets costs nothing and is kept even when the budget is spent.
    const spent = new WorkBudget(0);
    const anchor = anchorIn(original, "offer to talk");
    expect(reanchor(anchor, original, spent)).toMatchObject({ start: anchor.start });
    expect(reanchor(anchor, `Moved. ${original}`, spent)).toBeNull();
  });

  it("finds a long quote in a text of one repeated letter with bounded work", () => {
    const text = "a".repeat(50_000);
    const quote = `${"a".repeat(500)}b${"a".repeat(499)}`;
    const budget = new WorkBudget();
    reanchor({ exact: quote, start: 100, end: 1100, prefix: "aaaa", suffix: "aaaa" }, text, budget);
    expect(ANCHORING_WORK_BUDGET - budget.remaining).toBeLessThan(ANCHORING_WORK_BUDGET / 10);
  });
});
