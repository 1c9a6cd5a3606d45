// Prism's content classifier and bogofilter, trained on the same messages and tested on the same
// others: how much of the spam each catches, and how many genuine messages each files as spam.
import {
  emptyModel,
  learn,
  looksLikeSpam,
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

/** Prism's classifier's verdicts, as a response is scored. */
export function prismVerdicts(train: Message[], test: Message[]): boolean[] {
  const model = emptyModel();
  for (const { spam, text } of train) learn(model, text, spam ? "spam" : "ham");
  return test.map(({ text }) => looksLikeSpam(model, text));
}

export function compare({ train, test }: Split): { prism: Tally; bogofilter: Tally } {
  return {
    prism: tally(test, prismVerdicts(train, test)),
    bogofilter: tally(test, bogofilterVerdicts(train, test)),
  };
}
