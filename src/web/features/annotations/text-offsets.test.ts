// @vitest-environment jsdom
// The browser's half of the offsets contract: offsets computed from the rendered DOM must be the
// offsets of the same passage in the server's htmlToPlainText, in both directions, or the server
// rejects an annotation (or highlights the wrong words).
import { afterEach, describe, expect, it } from "vitest";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
import {
  fragmentPlainText,
  isTrimmedPassage,
  mount,
  pointAfter,
  pointAt,
} from "../../test/dom-text.ts";
import { plainTextOf, rangeFor, selectionWithin } from "./text-offsets.ts";

afterEach(() => {
  document.body.innerHTML = "";
});

/**
 * Prism content as the server stores it: each string is what its sanitizer returns (it is a fixed
 * point of sanitizeContent), so it is what both the browser and htmlToPlainText see.
 */
const documents: Record<string, string> = {
  paragraphs:
    "<p>First paragraph here.</p><p>Second one, a little longer.</p><p>Third and last.</p>",
  "line breaks": "<p>Line one<br />line two<br /><br />line four</p><p>Next paragraph</p>",
  "nested marks":
    "<p>Plain <strong>bold <em>bold italic</em> bold</strong> then <em>italic</em> and <u>under</u>.</p>",
  links:
    '<p>See <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow ugc" target="_blank">the <strong>docs</strong></a> or <a href="mailto:team@example.com" rel="noopener noreferrer nofollow ugc" target="_blank">mail us</a>.</p>',
  entities: '<p>Fish &amp; chips &lt;3 &gt; "quoted" it\'s\u00a0fine &amp;amp; done</p>',
  "non-ASCII and emoji":
    "<p>Café naïve — Ελληνικά 日本語</p><p>Family 👩‍👩‍👧 flag 🇫🇷 math 𝔘𝔫𝔦 end 😀</p>",
  "whitespace between blocks": "<p>Alpha</p>\n<p>Beta</p>\n\n<p>  Gamma  </p> <p>Delta</p>",
  "empty paragraphs": "<p>Before</p><p></p><p><br /></p><p>After</p><p></p>",
  "text after a block": "<p>In a paragraph</p>and loose text<br />after it",
  "a written prism":
    '<p>I work <strong>best</strong> in the <em>morning</em>.</p><p></p><p>Ask me about <a href="https://example.org/" rel="noopener noreferrer nofollow ugc" target="_blank">R&amp;D</a>, café 🙂<br />or <strong><em>anything</em></strong> else.</p>\n<p>Thanks!</p>',
};

describe("the plain text of rendered content", () => {
  for (const [name, html] of Object.entries(documents)) {
    it(`is the server's plain text: ${name}`, () => {
      expect(plainTextOf(mount(html))).toBe(htmlToPlainText(html));
    });
  }

  it("keeps words of adjacent paragraphs apart with one newline", () => {
    expect(plainTextOf(mount(documents.paragraphs as string))).toBe(
      "First paragraph here.\nSecond one, a little longer.\nThird and last.",
    );
  });
});

/** A passage the reader selects by dragging from one word to another, and what it must give. */
interface Drag {
  html: string;
  from: string;
  to: string;
  quote: string;
}

const drags: Record<string, Drag> = {
  "within one paragraph": {
    html: documents.paragraphs as string,
    from: "one, a",
    to: "little",
    quote: "one, a little",
  },
  "across paragraphs": {
    html: documents.paragraphs as string,
    from: "here.",
    to: "Third",
    quote: "here.\nSecond one, a little longer.\nThird",
  },
  "across line breaks": {
    html: documents["line breaks"] as string,
    from: "two",
    to: "four",
    quote: "two\n\nline four",
  },
  "from plain into nested marks": {
    html: documents["nested marks"] as string,
    from: "Plain",
    to: "italic",
    quote: "Plain bold bold italic",
  },
  "out of nested marks": {
    html: documents["nested marks"] as string,
    from: "italic",
    to: "then",
    quote: "italic bold then",
  },
  "a link's text": {
    html: documents.links as string,
    from: "the ",
    to: "docs",
    quote: "the docs",
  },
  "decoded entities": {
    html: documents.entities as string,
    from: "&",
    to: "fine",
    quote: '& chips <3 > "quoted" it\'s\u00a0fine',
  },
  "a literal &amp;": {
    html: documents.entities as string,
    from: "&amp;",
    to: "done",
    quote: "&amp; done",
  },
  "accented and Greek letters": {
    html: documents["non-ASCII and emoji"] as string,
    from: "naïve",
    to: "Ελληνικά",
    quote: "naïve — Ελληνικά",
  },
  "emoji and astral letters": {
    html: documents["non-ASCII and emoji"] as string,
    from: "👩‍👩‍👧",
    to: "😀",
    quote: "👩‍👩‍👧 flag 🇫🇷 math 𝔘𝔫𝔦 end 😀",
  },
  "across whitespace between blocks": {
    html: documents["whitespace between blocks"] as string,
    from: "Beta",
    to: "Gamma",
    quote: "Beta\n\n  Gamma",
  },
  "across empty paragraphs": {
    html: documents["empty paragraphs"] as string,
    from: "fore",
    to: "Aft",
    quote: "fore\n\nAft",
  },
  "from a paragraph into loose text": {
    html: documents["text after a block"] as string,
    from: "paragraph",
    to: "after",
    quote: "paragraphand loose text\nafter",
  },
};

describe("a selection gives the offsets of the same passage in the server's text", () => {
  for (const [name, { html, from, to, quote }] of Object.entries(drags)) {
    it(name, () => {
      const server = htmlToPlainText(html);
      const start = server.indexOf(quote);
      // The expectation itself must be unambiguous.
      expect(start).toBeGreaterThanOrEqual(0);
      expect(server.indexOf(quote, start + 1)).toBe(-1);

      const root = mount(html);
      const range = document.createRange();
      const begin = pointAt(root, from);
      const finish = pointAfter(root, to);
      range.setStart(begin.node, begin.offset);
      range.setEnd(finish.node, finish.offset);

      const picked = selectionWithin(root, range);
      expect(picked).toEqual({
        selectedText: quote,
        selectionStart: start,
        selectionEnd: start + quote.length,
      });
      // What the server checks before it accepts an annotation.
      expect(server.slice(picked?.selectionStart, picked?.selectionEnd)).toBe(picked?.selectedText);
    });
  }

  it("a triple-clicked paragraph (ending at the start of the next) is that paragraph's text", () => {
    const html = documents.paragraphs as string;
    const root = mount(html);
    const [, second, third] = Array.from(root.querySelectorAll("p"));
    const range = document.createRange();
    range.setStart(second as Node, 0);
    range.setEnd(third as Node, 0);
    const quote = "Second one, a little longer.";
    const start = htmlToPlainText(html).indexOf(quote);
    expect(selectionWithin(root, range)).toEqual({
      selectedText: quote,
      selectionStart: start,
      selectionEnd: start + quote.length,
    });
  });

  it("a selection around whole elements counts from the first text inside them", () => {
    const html = documents["nested marks"] as string;
    const root = mount(html);
    const range = document.createRange();
    range.setStartBefore(root.querySelector("strong") as Node);
    range.setEndAfter(root.querySelector("u") as Node);
    const quote = "bold bold italic bold then italic and under";
    const start = htmlToPlainText(html).indexOf(quote);
    expect(start).toBeGreaterThan(0);
    expect(selectionWithin(root, range)).toEqual({
      selectedText: quote,
      selectionStart: start,
      selectionEnd: start + quote.length,
    });
  });

  it("select-all is the whole text, trimmed", () => {
    const html = documents["whitespace between blocks"] as string;
    const root = mount(html);
    const range = document.createRange();
    range.selectNodeContents(root);
    const text = htmlToPlainText(html);
    expect(selectionWithin(root, range)).toEqual({
      selectedText: text.trim(),
      selectionStart: text.indexOf("Alpha"),
      selectionEnd: text.indexOf("Delta") + "Delta".length,
    });
  });

  it("surrounding spaces and newlines are trimmed off the passage", () => {
    const html = documents["whitespace between blocks"] as string;
    const root = mount(html);
    const range = document.createRange();
    const begin = pointAt(root, "  Gamma");
    const finish = pointAfter(root, "Gamma  ");
    range.setStart(begin.node, begin.offset);
    range.setEnd(finish.node, finish.offset);
    const start = htmlToPlainText(html).indexOf("Gamma");
    expect(selectionWithin(root, range)).toEqual({
      selectedText: "Gamma",
      selectionStart: start,
      selectionEnd: start + 5,
    });
  });

  it("a selection of whitespace only is no passage", () => {
    const root = mount(documents["whitespace between blocks"] as string);
    const range = document.createRange();
    const gap = root.childNodes[1] as Text;
    expect(gap.data).toBe("\n");
    range.selectNode(gap);
    expect(selectionWithin(root, range)).toBeNull();
  });

  it("a selection outside the content is none of its business", () => {
    const root = mount(documents.paragraphs as string);
    const outside = document.createElement("p");
    outside.textContent = "Elsewhere on the page";
    document.body.append(outside);
    const range = document.createRange();
    range.selectNodeContents(outside);
    expect(selectionWithin(root, range)).toBeNull();
  });

  it("a selection that spans the whole content from outside is someone copying the page", () => {
    const root = mount(documents.paragraphs as string);
    const range = document.createRange();
    range.selectNodeContents(document.body);
    expect(selectionWithin(root, range)).toBeNull();
  });

  it("a selection that runs out of the content is corrected to end where the content ends", () => {
    const root = mount(documents.paragraphs as string);
    const outside = document.createElement("p");
    outside.textContent = "After the content";
    document.body.append(outside);
    const range = document.createRange();
    const begin = pointAt(root, "Third");
    range.setStart(begin.node, begin.offset);
    range.setEnd(outside.firstChild as Node, 5);
    const text = plainTextOf(root);
    expect(selectionWithin(root, range)).toEqual({
      selectedText: "Third and last.",
      selectionStart: text.indexOf("Third"),
      selectionEnd: text.length,
    });
  });

  it("a selection that begins before the content is corrected to start at 0", () => {
    const root = mount(documents.paragraphs as string);
    const before = document.createElement("p");
    before.textContent = "Above the content";
    document.body.prepend(before);
    const range = document.createRange();
    const end = pointAt(root, "paragraph here");
    range.setStart(before.firstChild as Node, 6);
    range.setEnd(end.node, end.offset + "paragraph".length);
    expect(selectionWithin(root, range)).toEqual({
      selectedText: "First paragraph",
      selectionStart: 0,
      selectionEnd: "First paragraph".length,
    });
  });
});

describe("stored offsets find the same passage in the DOM", () => {
  it("a range inside nested marks starts and ends in the right text node", () => {
    const html = documents["nested marks"] as string;
    const root = mount(html);
    const start = htmlToPlainText(html).indexOf("bold italic");
    const range = rangeFor(root, start, start + "bold italic".length);
    const em = root.querySelector("em")?.firstChild;
    expect(range?.startContainer).toBe(em);
    expect(range?.startOffset).toBe(0);
    expect(range?.endContainer).toBe(em);
    expect(range?.endOffset).toBe("bold italic".length);
    expect(range?.toString()).toBe("bold italic");
  });

  it("offsets after emoji count UTF-16 code units on both sides", () => {
    const html = documents["non-ASCII and emoji"] as string;
    const root = mount(html);
    const quote = "math 𝔘𝔫𝔦";
    const start = htmlToPlainText(html).indexOf(quote);
    const range = rangeFor(root, start, start + quote.length);
    expect(range?.toString()).toBe(quote);
  });

  it("offsets outside the text, or an empty span, give no range", () => {
    const html = documents.paragraphs as string;
    const root = mount(html);
    const length = htmlToPlainText(html).length;
    expect(rangeFor(root, -1, 3)).toBeNull();
    expect(rangeFor(root, 0, length + 1)).toBeNull();
    expect(rangeFor(root, 4, 4)).toBeNull();
    expect(rangeFor(root, 0, length)).not.toBeNull();
  });

  for (const [name, html] of Object.entries(documents)) {
    it(`every passage round-trips through the DOM: ${name}`, () => {
      const server = htmlToPlainText(html);
      const root = mount(html);
      const wrong: string[] = [];
      let checked = 0;
      for (let start = 0; start < server.length; start++) {
        for (let end = start + 1; end <= server.length; end++) {
          if (!isTrimmedPassage(server, start, end)) continue;
          checked++;
          const quote = server.slice(start, end);
          const range = rangeFor(root, start, end);
          if (!range) {
            wrong.push(`[${start}, ${end}) ${JSON.stringify(quote)}: no range`);
            continue;
          }
          // The range covers exactly the stored quote, read as the server reads HTML…
          const covered = fragmentPlainText(range);
          if (covered !== quote)
            wrong.push(`[${start}, ${end}) covers ${JSON.stringify(covered)}, not the quote`);
          // …and selecting that range gives back the stored offsets.
          const picked = selectionWithin(root, range);
          if (picked?.selectionStart !== start || picked.selectionEnd !== end)
            wrong.push(`[${start}, ${end}) selects as ${JSON.stringify(picked)}`);
        }
      }
      expect(checked).toBeGreaterThan(server.length);
      expect(wrong.slice(0, 10)).toEqual([]);
    });
  }
});

// Sanitized content that the browser and the server once read differently: the server then
// refused the reader's annotation ("The selected text does not match the prism").
describe("content the browser's parser reads its own way", () => {
  function annotateInBrowser(html: string, word: string) {
    const root = mount(html);
    const range = document.createRange();
    const begin = pointAt(root, word);
    const finish = pointAfter(root, word);
    range.setStart(begin.node, begin.offset);
    range.setEnd(finish.node, finish.offset);
    const picked = selectionWithin(root, range);
    return htmlToPlainText(html).slice(picked?.selectionStart, picked?.selectionEnd);
  }

  it("counts the line break between text before the first paragraph and the paragraph (the sanitizer's output for <h1>Intro</h1><p>Body</p>)", () => {
    // sanitizeContent("<h1>Intro</h1><p>Body text</p>") === "Intro<p>Body text</p>"
    expect(annotateInBrowser("Intro<p>Body text</p>", "text")).toBe("text");
  });

  it("reads a carriage return in stored content as the browser's parser does (CRLF becomes LF)", () => {
    // sanitizeContent keeps "\r\n" (content sent by an API client, or pasted from Windows).
    expect(annotateInBrowser("<p>one\r\ntwo three</p>", "three")).toBe("three");
  });
});
