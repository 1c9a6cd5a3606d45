import { describe, expect, it } from "vitest";
import { htmlToPlainText, originalContext, quoteContext } from "./plain-text.ts";

describe("htmlToPlainText", () => {
  it("joins text nodes and keeps paragraphs apart with one newline", () => {
    expect(
      htmlToPlainText("<p>Hello <strong>bold</strong> world.</p><p>Second <em>one</em></p>"),
    ).toBe("Hello bold world.\nSecond one");
  });

  it("decodes entities and turns <br> into a newline", () => {
    expect(htmlToPlainText("<p>Fish &amp; chips&nbsp;&#39;n&#x27; &lt;tags&gt;<br>next</p>")).toBe(
      "Fish & chips\u00a0'n' <tags>\nnext",
    );
  });

  it("keeps text outside blocks and leaves an empty document empty", () => {
    expect(htmlToPlainText("plain")).toBe("plain");
    expect(htmlToPlainText("")).toBe("");
    expect(htmlToPlainText("<p></p><p>a</p>")).toBe("a");
  });
});

describe("quoteContext", () => {
  it("takes up to 32 characters either side", () => {
    const text = `${"a".repeat(40)}QUOTE${"b".repeat(40)}`;
    expect(quoteContext(text, 40, 45)).toEqual({ prefix: "a".repeat(32), suffix: "b".repeat(32) });
    expect(quoteContext("xQy", 1, 2)).toEqual({ prefix: "x", suffix: "y" });
  });
});

describe("originalContext", () => {
  it("keeps up to 100 characters either side, leaving out a word the bound cut", () => {
    const words = "word ".repeat(30);
    const text = `${words}PASSAGE${words}`;
    const start = words.length;
    const end = start + "PASSAGE".length;
    const { before, after } = originalContext(text, start, end);
    expect(before).toBe("word ".repeat(19));
    expect(after).toBe(`${"word ".repeat(19)}word`);
    expect(before.length).toBeLessThanOrEqual(100);
    expect(after.length).toBeLessThanOrEqual(100);
  });

  it("keeps all of a short text, and a long word the bound cut when it is all there is", () => {
    expect(originalContext("A short PASSAGE here.", 8, 15)).toEqual({
      before: "A short ",
      after: " here.",
    });
    const long = "x".repeat(150);
    expect(originalContext(`${long}Q${long}`, 150, 151)).toEqual({
      before: "x".repeat(100),
      after: "x".repeat(100),
    });
  });
});
