// Past the bound, the versions are marked as one changed stretch, cut between whole words.
import { describe, expect, it } from "vitest";
import { MAX_WORD_EDITS, wordChanges } from "./word-changes.ts";

const words = (count: number, word: string) => Array.from({ length: count }, () => word).join(" ");

describe("wordChanges", () => {
  it("keeps what both versions begin and end with, and marks the stretch between", () => {
    const before = `Keep this start. ${words(MAX_WORD_EDITS, "old")} Keep this end.`;
    const after = `Keep this start. ${words(MAX_WORD_EDITS, "new")} Keep this end.`;
    expect(wordChanges(before, after)).toEqual({
      wordByWord: false,
      parts: [
        { value: "Keep this start. ", added: false, removed: false },
        { value: words(MAX_WORD_EDITS, "old"), added: false, removed: true },
        { value: words(MAX_WORD_EDITS, "new"), added: true, removed: false },
        { value: " Keep this end.", added: false, removed: false },
      ],
    });
  });

  it("cuts between words, not inside one that both versions begin alike", () => {
    const before = `We plan ${words(MAX_WORD_EDITS, "a")}`;
    const after = `We planned ${words(MAX_WORD_EDITS, "b")}`;
    expect(wordChanges(before, after).parts).toEqual([
      { value: "We ", added: false, removed: false },
      { value: before.slice(3), added: false, removed: true },
      { value: after.slice(3), added: true, removed: false },
    ]);
  });
});
