// The content classifier: a naive Bayes model of the words of what an owner approved ("ham") and
// of what they set aside as spam, kept per owner (see spam-model.ts) and trained by their
// decisions alone. Each word counted once a text (the "boolean" multinomial variant, which suits
// spam best), Laplace smoothing, and a text judged by its words' mean log-likelihood ratio (see
// `spamLeaning`). Prism's own rather than a library's: the model must live in Prism's database
// as plain counts, be taught one response at a time inside a decision's transaction, and take a
// lesson back. Pure: no database, nothing sent anywhere.
import type { SpamModel } from "../../db/schema.ts";

/** The two kinds of text the owner teaches. */
export type Lesson = "ham" | "spam";

/** How many texts of each kind the model must have learnt before it speaks. */
export const LESSONS_BEFORE_SPEAKING = 5;

/**
 * The leaning (see `spamLeaning`) from which the classifier calls a text spam, and below whose
 * opposite it calls it genuine: on average, each of its words two fifths more likely (e^0.35) in
 * one than in the other. Chosen by 5-fold cross-validation on the part of the SpamAssassin corpus
 * the filters learn from, never on the part they are tested on (`npm run bench:spam -- --cut-off`,
 * tests/spam/cross-validate.ts): the lowest cut-off at which the held-out folds had no more
 * genuine messages filed as spam than bogofilter filed on the same folds (2 of 2,764), rounded up
 * to the hundredth. Fixed here; bench/README.md gives the figures.
 */
export const SPAM_LEANING = 0.35;

/** The words of a text the model reads, at most this many (the first ones). */
const WORDS_READ = 2000;

const WORD = /[\p{L}\p{N}$][\p{L}\p{N}'$_-]*[\p{L}\p{N}$]/gu;
/** Markup: its tags and attributes say how a text looks, not what it says. */
const TAG = /<[^>]{0,2000}>/g;
const LINK_HOST = /\b(?:https?:\/\/|www\.)([a-z0-9.-]+)/gi;

export function emptyModel(): SpamModel {
  return { docs: { ham: 0, spam: 0 }, words: { ham: 0, spam: 0 }, counts: {} };
}

/**
 * The distinct words of a text, in lower case (2 to 30 characters), and the hosts its links name
 * (`link:example.com`), each once.
 */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const hosts = [...lower.matchAll(LINK_HOST)].map(([, host]) => `link:${host}`);
  const words = (lower.replace(TAG, " ").match(WORD) ?? []).filter((word) => word.length <= 30);
  return [...new Set([...words, ...hosts])].slice(0, WORDS_READ);
}

/**
 * Teaches the model (in place) that `text` is of the kind `lesson`; `times` -1 takes that lesson
 * back (an owner who changed their mind).
 */
export function learn(model: SpamModel, text: string, lesson: Lesson, times: 1 | -1 = 1): void {
  const index = lesson === "ham" ? 0 : 1;
  const tokens = tokenize(text);
  model.docs[lesson] = Math.max(0, model.docs[lesson] + times);
  for (const token of tokens) {
    const counts = countsOf(model, token) ?? [0, 0];
    if (counts[index] + times < 0) continue;
    counts[index] += times;
    model.words[lesson] += times;
    if (counts[0] === 0 && counts[1] === 0) delete model.counts[token];
    else model.counts[token] = counts;
  }
}

/**
 * What the model counted of a token, read as the model's own: a word such as "constructor" names
 * a property every object inherits, which is not a count.
 */
function countsOf(model: SpamModel, token: string): [number, number] | undefined {
  return Object.hasOwn(model.counts, token) ? model.counts[token] : undefined;
}

/** Whether the model has learnt enough of each kind to be listened to. */
export function hasLearntEnough(model: SpamModel): boolean {
  return model.docs.ham >= LESSONS_BEFORE_SPEAKING && model.docs.spam >= LESSONS_BEFORE_SPEAKING;
}

/**
 * How far `text` leans towards spam: naive Bayes' log-likelihood ratio of each word it holds
 * (the chance of the word in what the owner set aside as spam over its chance in what they
 * approved, counts smoothed by one), averaged over those words. Averaged rather than summed (the
 * length-normalised naive Bayes), so that a long text of many mildly spammy words (a newsletter)
 * is not taken for spam, nor one strongly genuine word outvoted by many. Words the model never
 * met say nothing either way; a text of none of them leans nowhere (0).
 */
export function spamLeaning(model: SpamModel, text: string): number {
  return leaningOf(model)(text);
}

/**
 * `spamLeaning` of one model for many texts: the model's vocabulary counted once, not for each
 * text (what measuring it on a corpus needs).
 */
export function leaningOf(model: SpamModel): (text: string) => number {
  const { words } = model;
  const vocabulary = Object.keys(model.counts).length + 1;
  return (text) => {
    let sum = 0;
    let known = 0;
    for (const token of tokenize(text)) {
      const seen = countsOf(model, token);
      if (!seen) continue;
      known += 1;
      sum +=
        Math.log((seen[1] + 1) / (words.spam + vocabulary)) -
        Math.log((seen[0] + 1) / (words.ham + vocabulary));
    }
    return known === 0 ? 0 : sum / known;
  };
}

/** Whether the model calls the text spam. */
export function looksLikeSpam(model: SpamModel, text: string): boolean {
  return spamLeaning(model, text) >= SPAM_LEANING;
}
