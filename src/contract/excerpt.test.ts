import { describe, expect, it } from "vitest";
import { excerpt } from "./excerpt.ts";

describe("excerpt", () => {
  it("leaves a text that fits as it is, without an ellipsis", () => {
    expect(excerpt("", 10)).toBe("");
    expect(excerpt("short", 10)).toBe("short");
    expect(excerpt("exactly 10", 10)).toBe("exactly 10");
  });

  it("cuts at the last space at or before max and adds an ellipsis", () => {
    expect(excerpt("the quick brown fox", 12)).toBe("the quick…");
    // The space right after max characters still ends a whole word.
    expect(excerpt("the quick brown fox", 9)).toBe("the quick…");
    expect(excerpt("the quick brown fox", 10)).toBe("the quick…");
  });

  it("treats newlines and runs of spaces as word boundaries", () => {
    expect(excerpt("one two\nthree four", 12)).toBe("one two…");
    expect(excerpt("one   two three", 8)).toBe("one…");
  });

  it("cuts at max when there is no space to cut at", () => {
    expect(excerpt("abcdefghijklmnop", 5)).toBe("abcde…");
    expect(excerpt(" abcdefghij", 5)).toBe(" abcd…");
  });

  it("does not split a character made of two code units", () => {
    expect(excerpt("abcd😀efgh", 5)).toBe("abcd…");
  });

  it("keeps the result within max characters plus the ellipsis", () => {
    const text = "I give feedback in writing first, then offer to talk it through. ".repeat(10);
    for (const max of [100, 150]) {
      const result = excerpt(text, max);
      expect(result.endsWith("…")).toBe(true);
      expect(result.length).toBeLessThanOrEqual(max + 1);
      expect(text.startsWith(result.slice(0, -1))).toBe(true);
      expect(result.slice(-2, -1)).not.toBe(" ");
    }
  });
});
