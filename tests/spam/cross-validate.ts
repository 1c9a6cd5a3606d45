// How the content classifier's cut-off (SPAM_LEANING in classifier.ts) and Robinson's constants
// (ROBINSON) are chosen: by 5-fold cross-validation on the part of the split the filters learn
// from, never on the part they are tested on. Each fold is held out in turn; Prism's classifier and
// bogofilter both learn from the other four and judge it. The cut-off is then the lowest at which
// Prism, over all five held-out folds, files no more genuine messages as spam than bogofilter did
// on the same folds: the requirement's "no more genuine misfiled", met on the learning part alone,
// with as much spam caught as that leaves. The constants are those of the candidates that catch
// the most held-out spam at their own cut-off.
import type { SpamModel } from "../../src/server/db/schema.ts";
import {
  leaningOf,
  ROBINSON,
  type Robinson,
} from "../../src/server/features/annotations/classifier.ts";
import { bogofilterVerdicts } from "./bogofilter.ts";
import type { Message } from "./corpus.ts";
import { learnt } from "./measure.ts";

export const FOLDS = 5;

/** A held-out message: whether it is spam, how far Prism leaned, and bogofilter's verdict. */
export interface HeldOut {
  spam: boolean;
  leaning: number;
  bogofilter: boolean;
}

/** Message i goes to fold i mod k (the split has already shuffled them by its fixed seed). */
export function foldsOf<T>(messages: T[], k = FOLDS): { learn: T[]; held: T[] }[] {
  return Array.from({ length: k }, (_, fold) => ({
    learn: messages.filter((_, i) => i % k !== fold),
    held: messages.filter((_, i) => i % k === fold),
  }));
}

/** A fold: the model learnt from the other four, what it holds out, bogofilter's verdicts on it. */
export interface Fold {
  model: SpamModel;
  held: Message[];
  bogofilter: boolean[];
}

/** The folds of `train`, each held out from a model and from a bogofilter taught the rest. */
export function foldsJudged(train: Message[], k = FOLDS): Fold[] {
  return foldsOf(train, k).map(({ learn, held }) => ({
    model: learnt(learn),
    held,
    bogofilter: bogofilterVerdicts(learn, held),
  }));
}

/** Every held-out message, judged by both filters (Prism's by `constants`). */
export function heldOut(folds: Fold[], constants: Robinson = ROBINSON): HeldOut[] {
  return folds.flatMap(({ model, held, bogofilter }) => {
    const leaning = leaningOf(model, constants);
    return held.map(({ spam, text }, i) => ({
      spam,
      leaning: leaning(text),
      bogofilter: bogofilter[i] === true,
    }));
  });
}

/**
 * The cut-off: the next hundredth above the leaning of the genuine message that would be one
 * misfiled more than bogofilter's count, so that only those leaning further are misfiled; at least
 * 0.01, since a text that leans nowhere (or away) is never spam.
 */
export function chooseCutOff(judged: HeldOut[]): number {
  const allowed = judged.filter(({ spam, bogofilter }) => !spam && bogofilter).length;
  const genuine = judged
    .filter(({ spam }) => !spam)
    .map(({ leaning }) => leaning)
    .sort((a, b) => b - a);
  const first = Math.max(genuine[allowed] ?? 0, 0);
  return Number((Math.floor(first * 100 + 1) / 100).toFixed(2));
}

/** The candidates for Robinson's constants: bogofilter's robx, robs and min_dev across a grid. */
export const CANDIDATES: Robinson[] = [0.0178, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4].flatMap(
  (robs) =>
    [0.2, 0.25, 0.3, 0.325, 0.35, 0.375, 0.4].map((minDev) => ({ robx: 0.52, robs, minDev })),
);

/** How much held-out spam Prism catches at a cut-off. */
export function spamCaught(judged: HeldOut[], cutOff: number): number {
  return judged.filter(({ spam, leaning }) => spam && leaning >= cutOff).length;
}

/**
 * The candidate that catches the most held-out spam at the cut-off chosen for it (the first such
 * in CANDIDATES' order), with that cut-off and catch.
 */
export function tune(
  folds: Fold[],
  candidates = CANDIDATES,
): { constants: Robinson; cutOff: number; caught: number } {
  let best = { constants: ROBINSON, cutOff: 0, caught: -1 };
  for (const constants of candidates) {
    const judged = heldOut(folds, constants);
    const cutOff = chooseCutOff(judged);
    const caught = spamCaught(judged, cutOff);
    if (caught > best.caught) best = { constants, cutOff, caught };
  }
  return best;
}
