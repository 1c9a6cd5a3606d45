// Prism's content classifier and bogofilter, trained on the same messages and tested on the same
// others: how much of the spam each catches, and how many genuine messages each files as spam.
import type { SpamModel } from "../../src/server/db/schema.ts";
import {
  emptyModel,
  leaningOf,
  learn,
  SPAM_LEANING,
} from "../../src/server/features/annotations/classifier.ts";
import { bogofilterVerdicts } from "./bogofilter.ts";
import type { Message, Split } from "./corpus.ts";

export interface Tally {
  spamCaught: number;
  spam: number;
  hamMisfiled: number;
  ham: number;
}

function tally(test: Message[], verdicts: boolean[]): Tally {
  const result = { spamCaught: 0, spam: 0, hamMisfiled: 0, ham: 0 };
  test.forEach(({ spam }, i) => {
    if (spam) {
      result.spam += 1;
      if (verdicts[i]) result.spamCaught += 1;
    } else {
      result.ham += 1;
      if (verdicts[i]) result.hamMisfiled += 1;
    }
  });
  return result;
}

/** A model taught each message as an owner's decision would teach it. */
export function learnt(train: Message[]): SpamModel {
  const model = emptyModel();
  for (const { spam, text } of train) learn(model, text, spam ? "spam" : "ham");
  return model;
}

/** Prism's classifier's verdicts, as a response is scored (`looksLikeSpam`). */
export function prismVerdicts(train: Message[], test: Message[]): boolean[] {
  const leaning = leaningOf(learnt(train));
  return test.map(({ text }) => leaning(text) >= SPAM_LEANING);
}

export function compare({ train, test }: Split): { prism: Tally; bogofilter: Tally } {
  return {
    prism: tally(test, prismVerdicts(train, test)),
    bogofilter: tally(test, bogofilterVerdicts(train, test)),
  };
}
