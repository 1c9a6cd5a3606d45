// The score of a response without an account: each signal, its weight, and the words the owner reads.
import { describe, expect, it } from "vitest";
import { SPAM_SCORE, scoreResponse } from "./spam-score.ts";

const typed = { typingMs: 60_000 };
const none = { approved: 0, rejected: 0, spam: 0 };

describe("scoreResponse", () => {
  it("finds nothing doubtful in a thought typed by a person", () => {
    expect(scoreResponse("I work this way too, mornings first.", typed, none)).toEqual({
      score: 0,
      reasons: [],
    });
  });

  it("counts links, bare domains too, up to three", () => {
    expect(scoreResponse("See https://example.com/a", typed, none)).toEqual({
      score: 1,
      reasons: ["Has a link"],
    });
    const many = "www.a.example b.com/x https://c.example/y http://d.example";
    const scored = scoreResponse(many, typed, none);
    expect(scored).toEqual({ score: 3, reasons: ["Has 4 links"] });
    expect(scored.score).toBeGreaterThanOrEqual(SPAM_SCORE);
  });

  it("sets aside a word that mixes alphabets, not text in two alphabets", () => {
    // "pаypal" with a Cyrillic "а".
    expect(scoreResponse("Log in to p\u0430ypal now", typed, none).reasons).toEqual([
      "Mixes alphabets within a word",
    ]);
    expect(scoreResponse("Привет, and hello", typed, none).score).toBe(0);
  });

  it("sets aside words in disguise or with hidden characters, not a ligature or two", () => {
    const disguised = [
      "Get \u{1D405}\u{1D411}\u{1D404}\u{1D404} money",
      "\uFF46\uFF52\uFF45\uFF45 gift",
      "pay\u200Bpal",
    ];
    for (const text of disguised) {
      expect(scoreResponse(text, typed, none).reasons).toEqual([
        "Hides its words in lookalike or invisible characters",
      ]);
    }
    // A ligature and a square from a pasted document; a Persian word's zero-width non-joiner.
    const genuine = [
      "A \uFB01ne idea for 10 m\u00B2",
      "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645",
    ];
    for (const text of genuine) expect(scoreResponse(text, typed, none).score).toBe(0);
  });

  it("weighs text sent faster than anyone types a little, and the browser's history", () => {
    const pasted = scoreResponse("x".repeat(300), { typingMs: 2000 }, none);
    expect(pasted).toEqual({ score: 1, reasons: ["Written faster than anyone types"] });
    expect(scoreResponse("Fine.", typed, { approved: 0, rejected: 0, spam: 1 })).toEqual({
      score: 3,
      reasons: ["Earlier responses from this browser were spam"],
    });
    expect(scoreResponse("Fine.", typed, { approved: 0, rejected: 2, spam: 0 }).score).toBe(1);
    // An approved history outweighs a link; it is no reason for doubt, so it is not listed.
    expect(
      scoreResponse("See https://example.com", typed, { approved: 1, rejected: 0, spam: 0 }),
    ).toEqual({ score: -1, reasons: ["Has a link"] });
  });

  it("weighs what the owner's content classifier makes of the text, when it says anything", () => {
    const links = { links: true };
    expect(scoreResponse("Fine.", typed, none, { ...links, content: "spam" })).toEqual({
      score: 3,
      reasons: ["Looks like what you marked as spam"],
    });
    expect(scoreResponse("Fine.", typed, none, { ...links, content: "ham" })).toEqual({
      score: -1,
      reasons: [],
    });
    expect(scoreResponse("Fine.", typed, none, { ...links, content: null }).score).toBe(0);
  });
});
