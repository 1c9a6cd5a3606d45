// The content classifier on its own: what it reads of a text, what it learns, and when it speaks.
import { describe, expect, it } from "vitest";
import {
  emptyModel,
  hasLearntEnough,
  inverseChiSquare,
  LESSONS_BEFORE_SPEAKING,
  learn,
  looksLikeSpam,
  spamLeaning,
  tokenize,
} from "./classifier.ts";

const spam = ["Cheap pills, buy now at https://pills.example/buy", "Buy cheap watches now"];
const ham = ["I work mornings first, like you.", "Your passage on mornings rings true"];

describe("the content classifier", () => {
  it("reads each word of 3 characters or more once, in lower case, and the hosts of links", () => {
    expect(tokenize("Buy buy BUY at https://Pills.example/x")).toEqual([
      "buy",
      "https",
      "pills",
      "example",
      "link:pills.example",
    ]);
    // Markup says how a text looks, not what it says; the hosts of its links still count.
    expect(tokenize('<td bgcolor="#fff"><a href="http://x.example/">Go on, read</a></td>')).toEqual(
      ["read", "link:x.example"],
    );
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

  it("leaves out the words that say little, however many there are", () => {
    const model = emptyModel();
    for (const text of ["weather report today", "weather report again"]) learn(model, text, "spam");
    for (const text of ["weather report here", "weather report now"]) learn(model, text, "ham");
    expect(spamLeaning(model, "weather report")).toBe(0);
    // One telling word, among words met as often in both kinds, is what the text is judged by.
    expect(spamLeaning(model, "weather report today")).toBeGreaterThan(0);
    expect(spamLeaning(model, "weather report here")).toBeLessThan(0);
  });

  it("judges a long text of many words of each kind by which kind has more", () => {
    const model = emptyModel();
    const spammy = Array.from({ length: 1200 }, (_, i) => `spammy${i}`).join(" ");
    const genuine = Array.from({ length: 800 }, (_, i) => `genuine${i}`).join(" ");
    learn(model, spammy, "spam");
    learn(model, genuine, "ham");
    // 2,000 telling words: chi-squares whose first terms, e^-1826 and less, are too small for a
    // number, but whose sums are not.
    expect(spamLeaning(model, `${spammy} ${genuine}`)).toBeGreaterThan(0.9);
    expect(spamLeaning(model, `${genuine} ${spammy.slice(0, 4000)}`)).toBeLessThan(-0.9);
  });
});

describe("Fisher's inverse chi-square", () => {
  it("is the chance of a chi-square variable as large or larger", () => {
    expect(inverseChiSquare(0, 4)).toBe(1);
    // With 2 degrees of freedom it is e^(-x/2); with 4, e^(-x/2) (1 + x/2).
    expect(inverseChiSquare(3, 2)).toBeCloseTo(Math.exp(-1.5), 12);
    expect(inverseChiSquare(2, 4)).toBeCloseTo(2 * Math.exp(-1), 12);
    // Its mean is its degrees of freedom, about which it is nearly even for many of them.
    expect(inverseChiSquare(4000, 4000)).toBeGreaterThan(0.45);
    expect(inverseChiSquare(4000, 4000)).toBeLessThan(0.55);
  });
});
