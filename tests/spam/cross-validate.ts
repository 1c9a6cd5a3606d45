// How the content classifier's cut-off (SPAM_LEANING in classifier.ts) is chosen: by 5-fold
// cross-validation on the part of the split the filters learn from, never on the part they are
// tested on. Each fold is held out in turn; Prism's classifier and bogofilter both learn from the
// other four and judge it. The cut-off is then the lowest at which Prism, over all five held-out
// folds, files no more genuine messages as spam than bogofilter did on the same folds: the
// requirement's "no more genuine misfiled", met on the learning part alone, with as much spam
// caught as that leaves.
import { leaningOf } from "../../src/server/features/annotations/classifier.ts";
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

/** Every message of `train`, judged by both filters while its fold was held out. */
export function heldOut(train: Message[], k = FOLDS): HeldOut[] {
  return foldsOf(train, k).flatMap(({ learn, held }) => {
    const leaning = leaningOf(learnt(learn));
    const verdicts = bogofilterVerdicts(learn, held);
    return held.map(({ spam, text }, i) => ({
      spam,
      leaning: leaning(text),
      bogofilter: verdicts[i] === true,
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
