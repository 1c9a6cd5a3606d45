import { describe, expect, it } from "vitest";
import { looksSafe, ownPayloads, xssCorpus } from "../../../../tests/fixtures/xss.ts";
import { sanitizeContent, sanitizeTitle } from "./sanitize.ts";

describe("sanitizeContent", () => {
  it("keeps the rich text a prism may hold and marks links as external", () => {
    expect(
      sanitizeContent(
        '<p>Hi <strong>b</strong> <em>i</em> <u>u</u> <a href="https://x.example">l</a></p>',
      ),
    ).toBe(
      '<p>Hi <strong>b</strong> <em>i</em> <u>u</u> <a href="https://x.example/" rel="noopener noreferrer nofollow ugc" target="_blank">l</a></p>',
    );
    expect(sanitizeContent("<b>bold</b> <i>it</i>")).toBe("<strong>bold</strong> <em>it</em>");
    expect(sanitizeContent('<a href="mailto:me@x.example">mail</a>')).toContain(
      'href="mailto:me@x.example"',
    );
  });

  it("drops scripts entirely and unknown tags but keeps their text", () => {
    expect(sanitizeContent("<p>a<script>alert(1)</script>b</p>")).toBe("<p>ab</p>");
    expect(sanitizeContent("<h1>Title</h1><div>text</div>")).toBe("Titletext");
  });

  it(`leaves nothing executable in ${xssCorpus().label}`, () => {
    const { payloads } = xssCorpus();
    console.log(`sanitizer checked against ${payloads.length} XSS payloads`);
    for (const payload of payloads) {
      const clean = sanitizeContent(payload);
      expect(looksSafe(clean), `${payload}\n→ ${clean}`).toBe(true);
    }
  });
});

describe("sanitizeTitle", () => {
  it("keeps plain text and drops every tag and angle bracket", () => {
    expect(sanitizeTitle("  How   I <b>work</b> & rest ")).toBe("How I work & rest");
    expect(sanitizeTitle("&lt;script&gt;x&lt;/script&gt;")).toBe("scriptx/script");
    for (const payload of ownPayloads) expect(sanitizeTitle(payload)).not.toMatch(/[<>]/);
  });
});
