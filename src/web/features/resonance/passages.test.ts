// The resonance map's words: how segments make passages, which one is "the most", and the
// sentence a screen reader hears.
import { describe, expect, it } from "vitest";
import { heatLevel, mostCovered, passagesOf, resonanceSummary } from "./passages.ts";

const TEXT = "I answer messages in batches. I keep mornings for deep work. Ask me anything.";
const at = (quote: string) => {
  const start = TEXT.indexOf(quote);
  if (start < 0) throw new Error(quote);
  return { start, end: start + quote.length };
};

describe("passagesOf", () => {
  it("joins touching segments into one passage and keeps apart those with a gap", () => {
    const batches = at("I answer messages in batches");
    const mornings = at("mornings");
    const segments = [
      { start: batches.start, end: batches.start + 8, count: 2 },
      { start: batches.start + 8, end: batches.end, count: 5 },
      { ...mornings, count: 1 },
    ];
    expect(passagesOf(segments)).toEqual([
      { ...batches, most: 5, least: 2 },
      { ...mornings, most: 1, least: 1 },
    ]);
  });
});

describe("mostCovered", () => {
  it("is the highest count, the earliest one on a tie", () => {
    const first = { ...at("batches"), count: 3 };
    const second = { ...at("mornings"), count: 3 };
    expect(mostCovered([{ ...at("I answer"), count: 1 }, first, second])).toBe(first);
    expect(mostCovered([])).toBeNull();
  });
});

describe("resonanceSummary", () => {
  it("counts passages and quotes the most covered stretch from the plain text", () => {
    const segments = [
      { ...at("I answer messages in batches"), count: 5 },
      { ...at("mornings"), count: 2 },
      { ...at("Ask me "), count: 1 },
      { ...at("anything"), count: 3 },
    ];
    expect(resonanceSummary(segments, TEXT)).toBe(
      "3 passages drew responses; the most, 5, on 'I answer messages in batches'",
    );
  });

  it("says one passage in the singular, and that none drew responses when none did", () => {
    expect(resonanceSummary([{ ...at("deep work"), count: 1 }], TEXT)).toBe(
      "1 passage drew responses; the most, 1, on 'deep work'",
    );
    expect(resonanceSummary([], TEXT)).toBe("No passage has drawn responses yet.");
  });

  it("puts a passage across paragraphs on one line", () => {
    const text = "First line\nsecond line";
    expect(resonanceSummary([{ start: 6, end: 17, count: 2 }], text)).toBe(
      "1 passage drew responses; the most, 2, on 'line second'",
    );
  });
});

describe("heatLevel", () => {
  it("follows the legend: 1, 2, 3–4, 5 and more", () => {
    expect([1, 2, 3, 4, 5, 9].map(heatLevel)).toEqual([1, 2, 3, 3, 4, 4]);
  });
});
