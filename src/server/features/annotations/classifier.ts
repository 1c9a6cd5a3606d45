// The content classifier: a model of the words of what an owner approved ("ham") and of what
// they set aside as spam, kept per owner (see spam-model.ts) and trained by their decisions alone.
// It judges a text as Debian's bogofilter judges mail: Gary Robinson's estimate of how spammy each
// word is (how many texts of each kind held it, pulled towards a prior while it is little seen),
// the words that say little left out, and the rest combined by Fisher's inverse chi-square into one
// indicator (see `spamLeaning`). Prism's own rather than a library's: the model must live in
// Prism's database as plain counts, be taught one response at a time inside a decision's
// transaction, and take a lesson back. Pure: no database, nothing sent anywhere.
import type { SpamModel } from "../../db/schema.ts";

/** The two kinds of text the owner teaches. */
export type Lesson = "ham" | "spam";

/** How many texts of each kind the model must have learnt before it speaks. */
export const LESSONS_BEFORE_SPEAKING = 5;

/**
 * The leaning (see `spamLeaning`, from -1 to 1) from which the classifier calls a text spam, and
 * below whose opposite it calls it genuine: Robinson's indicator of 0.945 or more (0.055 or less).
 * Chosen by 5-fold cross-validation on the part of the SpamAssassin corpus the filters learn from,
 * never on the part they are tested on (`npm run bench:spam -- --cut-off`,
 * tests/spam/cross-validate.ts): the lowest cut-off at which the held-out folds had no more
 * genuine messages filed as spam than bogofilter filed on the same folds (2 of 2,764), rounded up
 * to the hundredth. Fixed here; bench/README.md gives the figures.
 */
export const SPAM_LEANING = 0.89;

/**
 * Robinson's constants, as bogofilter names them: a word's spamminess before it is seen (robx),
 * how many texts' worth of weight that prior has (robs), and how far from 0.5 a word's spamminess
 * must be to be heard (min_dev). robx is bogofilter's; robs and min_dev were chosen by the same
 * cross-validation as the cut-off (`npm run bench:spam -- --tune`, bench/README.md): of the
 * candidates there, the pair that caught the most held-out spam at its own cut-off.
 */
export interface Robinson {
  robx: number;
  robs: number;
  minDev: number;
}

export const ROBINSON: Robinson = { robx: 0.52, robs: 0.35, minDev: 0.35 };

/** The distinct words of a text the model reads, at most this many (the first ones). */
const WORDS_READ = 2000;

const WORD = /[\p{L}\p{N}$][\p{L}\p{N}'$_-]*[\p{L}\p{N}$]/gu;
/** Markup: its tags and attributes say how a text looks, not what it says. */
const TAG = /<[^>]{0,2000}>/g;
const LINK_HOST = /\b(?:https?:\/\/|www\.)([a-z0-9.-]+)/gi;

export function emptyModel(): SpamModel {
  return { docs: { ham: 0, spam: 0 }, words: { ham: 0, spam: 0 }, counts: {} };
}

/**
 * The distinct words of a text, in lower case (3 to 30 characters, as bogofilter reads them:
 * shorter ones are mostly the words every text holds), and the hosts its links name
 * (`link:example.com`), each once.
 */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const hosts = [...lower.matchAll(LINK_HOST)].map(([, host]) => `link:${host}`);
  const words = (lower.replace(TAG, " ").match(WORD) ?? []).filter(
    (word) => word.length >= 3 && word.length <= 30,
  );
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
 * How far `text` leans towards spam, from -1 (genuine) to 1 (spam): Robinson's indicator I (0.5
 * where the evidence is even) as 2I - 1. Each word the model knows has its spamminess
 * f = (robs * robx + n * p) / (robs + n) (see ROBINSON): n the texts that held it, p the share of
 * spam texts that held it over the sum of that share and the share of genuine ones. Words whose f
 * is within min_dev of 0.5 are left out. Of the rest, H is Fisher's inverse chi-square of
 * -2 * sum(ln f) and S of -2 * sum(ln (1 - f)), with twice as many degrees of freedom as words: H
 * near 1 when they are together spammier than chance would make them, S when they are together
 * more genuine; I = (1 + H - S) / 2, so the leaning is H - S. Many mildly spammy words (a
 * newsletter) do not add up to spam, nor is one strongly genuine word outvoted by many. Words the
 * model never met say nothing either way; a text with none it hears leans nowhere (0).
 */
export function spamLeaning(model: SpamModel, text: string): number {
  return leaningOf(model)(text);
}

/**
 * `spamLeaning` of one model for many texts (what measuring it on a corpus needs), by Robinson's
 * constants (other ones only to choose them).
 */
export function leaningOf(
  model: SpamModel,
  { robx, robs, minDev }: Robinson = ROBINSON,
): (text: string) => number {
  const ham = Math.max(model.docs.ham, 1);
  const spam = Math.max(model.docs.spam, 1);
  return (text) => {
    let sumLnF = 0;
    let sumLnNotF = 0;
    let heard = 0;
    for (const token of tokenize(text)) {
      const seen = countsOf(model, token);
      if (!seen) continue;
      const inSpam = seen[1] / spam;
      const p = inSpam / (inSpam + seen[0] / ham);
      const n = seen[0] + seen[1];
      const f = (robs * robx + n * p) / (robs + n);
      if (Math.abs(f - 0.5) < minDev) continue;
      heard += 1;
      sumLnF += Math.log(f);
      sumLnNotF += Math.log(1 - f);
    }
    if (heard === 0) return 0;
    const h = inverseChiSquare(-2 * sumLnF, 2 * heard);
    const s = inverseChiSquare(-2 * sumLnNotF, 2 * heard);
    return h - s;
  };
}

/**
 * Fisher's inverse chi-square: the chance that a chi-square variable of `freedom` (even) degrees
 * of freedom is `value` or more, e^-m * sum over i < freedom / 2 of m^i / i!, with m = value / 2.
 * Summed in logarithms, since for long texts e^-m alone is too small for a number.
 */
export function inverseChiSquare(value: number, freedom: number): number {
  const m = value / 2;
  const logs: number[] = [-m];
  for (let i = 1; i < freedom / 2; i++) logs.push((logs[i - 1] as number) + Math.log(m / i));
  const top = Math.max(...logs);
  const sum = logs.reduce((total, log) => total + Math.exp(log - top), 0);
  return Math.min(1, Math.exp(top + Math.log(sum)));
}

/** Whether the model calls the text spam. */
export function looksLikeSpam(model: SpamModel, text: string): boolean {
  return spamLeaning(model, text) >= SPAM_LEANING;
}
