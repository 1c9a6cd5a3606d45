// The content classifier on its own: what it reads of a text, what it learns, and when it speaks.
import { describe, expect, it } from "vitest";
import {
  emptyModel,
  hasLearntEnough,
  LESSONS_BEFORE_SPEAKING,
  learn,
  looksLikeSpam,
  spamLeaning,
  tokenize,
} from "./classifier.ts";

const spam = ["Cheap pills, buy now at https://pills.example/buy", "Buy cheap watches now"];
const ham = ["I work mornings first, like you.", "Your passage on mornings rings true"];

describe("the content classifier", () => {
  it("reads each word once, in lower case, and the hosts of links", () => {
    expect(tokenize("Buy buy BUY at https://Pills.example/x")).toEqual([
      "buy",
      "at",
      "https",
      "pills",
      "example",
      "link:pills.example",
    ]);
    // Markup says how a text looks, not what it says; the hosts of its links still count.
    expect(tokenize('<td bgcolor="#fff"><a href="http://x.example/">Go on</a></td>')).toEqual([
      "go",
      "on",
      "link:x.example",
    ]);
  });

  it("leans towards what it was taught, and takes a lesson back", () => {
    const model = emptyModel();
    for (const text of spam) learn(model, text, "spam");
    for (const text of ham) learn(model, text, "ham");
    expect(looksLikeSpam(model, "buy cheap pills")).toBe(true);
    expect(spamLeaning(model, "mornings first")).toBeLessThan(0);
    expect(spamLeaning(model, "unknown words entirely")).toBe(0);
    for (const text of spam) learn(model, text, "spam", -1);
    expect(model.docs).toEqual({ ham: 2, spam: 0 });
    expect(model.counts.pills).toBeUndefined();
    expect(model.words.spam).toBe(0);
  });

  it("speaks only once it has learnt enough of each kind", () => {
    const model = emptyModel();
    for (let i = 0; i < LESSONS_BEFORE_SPEAKING; i++) learn(model, `spam ${i}`, "spam");
    for (let i = 1; i < LESSONS_BEFORE_SPEAKING; i++) learn(model, `ham ${i}`, "ham");
    expect(hasLearntEnough(model)).toBe(false);
    learn(model, "ham 0", "ham");
    expect(hasLearntEnough(model)).toBe(true);
  });

  it("reads a word that names a property of every object as any other word", () => {
    const model = emptyModel();
    expect(spamLeaning(model, "constructor")).toBe(0);
    for (const text of spam) learn(model, text, "spam");
    for (const text of ham) learn(model, text, "ham");
    expect(spamLeaning(model, "the constructor of cheap pills")).toBeGreaterThan(0);
    learn(model, "Ask the constructor", "spam");
    expect(model.counts.constructor).toEqual([0, 1]);
    expect(JSON.parse(JSON.stringify(model)).counts.constructor).toEqual([0, 1]);
  });
});
