// @vitest-environment jsdom
// A selection is quoted in whole words, whether it was made with a mouse, a finger or the keyboard,
// and the whole words are still the server's text at the stored offsets.
import { afterEach, describe, expect, it } from "vitest";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import { mount, pointAfter, pointAt } from "../../test/dom-text.ts";
import { snapToWords } from "./snap-to-words.ts";
import { plainTextOf, selectionWithin } from "./text-offsets.ts";

afterEach(() => {
  document.body.innerHTML = "";
});

/** Snaps the passage between the first `from` and the end of the first `to` in `text`. */
function snap(text: string, from: string, to: string) {
  const start = text.indexOf(from);
  const end = text.indexOf(to) + to.length;
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return snapToWords(text, start, end);
}

/** What is stored for a passage: its text, which must be the text at its offsets. */
function quoted(text: string, from: string, to: string) {
  const snapped = snap(text, from, to);
  expect(text.slice(snapped?.selectionStart, snapped?.selectionEnd)).toBe(snapped?.selectedText);
  return snapped?.selectedText;
}

describe("a selection is quoted in whole words", () => {
  const text = "Please tell me plainly what you saw, not what you guessed.";

  it("keeps a selection of whole words as it is", () => {
    expect(snap(text, "tell", "plainly")).toEqual({
      selectedText: "tell me plainly",
      selectionStart: text.indexOf("tell"),
      selectionEnd: text.indexOf("plainly") + "plainly".length,
    });
  });

  it("takes in the rest of a word the selection ends inside", () => {
    expect(quoted(text, "tell", "plai")).toBe("tell me plainly");
  });

  it("takes in the beginning of a word the selection starts inside", () => {
    expect(quoted(text, "ell", "me")).toBe("tell me");
  });

  it("widens both ends of a selection inside a single word", () => {
    expect(quoted(text, "ain", "nl")).toBe("plainly");
  });

  it("keeps the punctuation the reader selected and adds none", () => {
    expect(quoted(text, "hat you saw,", "no")).toBe("what you saw, not");
    expect(quoted(text, "w, not", "sed.")).toBe("saw, not what you guessed.");
    expect(quoted(text, "aw", "aw")).toBe("saw");
  });

  it("does not split a word at its apostrophe, nor a number at its point", () => {
    const words = "I don't count past 3.14 before lunch.";
    expect(quoted(words, "on", "on")).toBe("don't");
    expect(quoted(words, "'t", "t c")).toBe("don't count");
    expect(quoted(words, ".1", ".1")).toBe("3.14");
  });

  it("trims surrounding whitespace before it looks for words", () => {
    expect(quoted(text, " me ", " me ")).toBe("me");
    // A selection starting on the space after a word does not reach back into that word.
    expect(quoted(text, " what you", " what you")).toBe("what you");
  });

  it("finds words in any script", () => {
    expect(quoted("Café naïve — Ελληνικά", "fé na", "ïv")).toBe("Café naïve");
    expect(quoted("Café naïve — Ελληνικά", "— Ελλ", "— Ελλ")).toBe("— Ελληνικά");
  });

  it("quotes nothing when only whitespace is selected", () => {
    expect(snapToWords("one  \n two", 3, 7)).toBeNull();
    expect(snapToWords("one two", 3, 3)).toBeNull();
  });
});

describe("a selection in rendered content, across inline tags", () => {
  const html =
    "<p>Writing forces me to <strong>separate what I observed</strong> from what I in<em>ferred</em>.</p>";

  function select(from: string, to: string, fromEnd = false) {
    const root = mount(html);
    const range = document.createRange();
    const begin = fromEnd ? pointAfter(root, from) : pointAt(root, from);
    const finish = pointAfter(root, to);
    range.setStart(begin.node, begin.offset);
    range.setEnd(finish.node, finish.offset);
    const exact = selectionWithin(root, range);
    if (!exact) throw new Error("no selection");
    const snapped = snapToWords(plainTextOf(root), exact.selectionStart, exact.selectionEnd);
    // The server accepts what is sent: its own text at those offsets.
    expect(htmlToPlainText(html).slice(snapped?.selectionStart, snapped?.selectionEnd)).toBe(
      snapped?.selectedText,
    );
    return snapped?.selectedText;
  }

  it("widens a selection from plain text into bold text to whole words", () => {
    expect(select("ces me", "sepa")).toBe("forces me to separate");
  });

  it("widens a selection out of bold text to whole words", () => {
    expect(select("bserved", "fr")).toBe("observed from");
  });

  it("treats a word split between a plain and an emphasised part as one word", () => {
    expect(select("I i", "fe", true)).toBe("inferred");
    expect(select("from what", "I in")).toBe("from what I inferred");
  });
});
