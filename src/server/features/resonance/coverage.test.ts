// How spans of text cover it: counted by responses, or by different people.
import { describe, expect, it } from "vitest";
import { coverage, mostCovered } from "./coverage.ts";

describe("coverage", () => {
  it("splits overlapping spans into disjoint stretches in order, counting the spans over each", () => {
    expect(
      coverage([
        { start: 10, end: 20, who: "a" },
        { start: 0, end: 15, who: "b" },
        { start: 30, end: 40, who: "c" },
      ]),
    ).toEqual([
      { start: 0, end: 10, count: 1 },
      { start: 10, end: 15, count: 2 },
      { start: 15, end: 20, count: 1 },
      { start: 30, end: 40, count: 1 },
    ]);
  });

  it("joins touching stretches of one count, and counts one person's spans once when asked", () => {
    const spans = [
      { start: 0, end: 5, who: "a" },
      { start: 5, end: 9, who: "b" },
      { start: 0, end: 9, who: "a" },
    ];
    expect(coverage(spans)).toEqual([{ start: 0, end: 9, count: 2 }]);
    expect(coverage(spans, true)).toEqual([
      { start: 0, end: 5, count: 1 },
      { start: 5, end: 9, count: 2 },
    ]);
    expect(coverage([])).toEqual([]);
  });

  it("finds the most-covered stretch, the earliest of equals, only from a least count", () => {
    const stretches = [
      { start: 0, end: 4, count: 2 },
      { start: 4, end: 8, count: 3 },
      { start: 12, end: 20, count: 3 },
    ];
    expect(mostCovered(stretches, 3)).toEqual({ start: 4, end: 8, count: 3 });
    expect(mostCovered(stretches, 4)).toBeNull();
    expect(mostCovered([], 1)).toBeNull();
  });
});
