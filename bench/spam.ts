// `npm run bench:spam`: Prism's content classifier beside Debian's bogofilter, both trained on
// the same two thirds of the SpamAssassin corpus (message bodies) and tested on the rest, and
// the same on the fixed sample the test reads. `-- --write-sample` writes that sample anew;
// `-- --cut-off` first chooses the classifier's cut-off by 5-fold cross-validation on the two
// thirds learnt from (tests/spam/cross-validate.ts) and fails when it is not the one in code;
// `-- --tune` likewise chooses Robinson's constants (ROBINSON) among the candidates there.
import { writeFileSync } from "node:fs";
import { ROBINSON, SPAM_LEANING } from "../src/server/features/annotations/classifier.ts";
import {
  fullSplit,
  type Message,
  readSample,
  SAMPLE,
  type Split,
  sampleFile,
  sampleOf,
} from "../tests/spam/corpus.ts";
import {
  CANDIDATES,
  chooseCutOff,
  FOLDS,
  type Fold,
  foldsJudged,
  heldOut,
  tune,
} from "../tests/spam/cross-validate.ts";
import { compare, type Tally } from "../tests/spam/measure.ts";

const percent = (part: number, whole: number) =>
  `${((100 * part) / Math.max(whole, 1)).toFixed(1)}%`;

function row(name: string, { spamCaught, spam, hamMisfiled, ham }: Tally): string {
  return `${name.padEnd(12)} ${`${spamCaught}/${spam} (${percent(spamCaught, spam)})`.padEnd(22)} ${hamMisfiled}/${ham} (${percent(hamMisfiled, ham)})`;
}

function report(title: string, split: Split): void {
  const started = performance.now();
  const { prism, bogofilter } = compare(split);
  console.log(`\n${title}: ${split.train.length} learnt, ${split.test.length} tested`);
  console.log(`${"".padEnd(12)} ${"spam caught".padEnd(22)} genuine filed as spam`);
  console.log(row("Prism", prism));
  console.log(row("bogofilter", bogofilter));
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

/** The cut-off cross-validation chooses on the part learnt from, and what it did on the folds. */
/** `learning`: the milliseconds the folds took to learn (bogofilter's among them). */
function crossValidate(train: Message[], folds: Fold[], learning: number): void {
  const started = performance.now() - learning;
  const judged = heldOut(folds);
  const cutOff = chooseCutOff(judged);
  const prism = judged.map(({ spam, leaning }) => ({ spam, filed: leaning >= cutOff }));
  const bogofilter = judged.map(({ spam, bogofilter }) => ({ spam, filed: bogofilter }));
  const count = (verdicts: { spam: boolean; filed: boolean }[]): Tally => ({
    spamCaught: verdicts.filter(({ spam, filed }) => spam && filed).length,
    spam: verdicts.filter(({ spam }) => spam).length,
    hamMisfiled: verdicts.filter(({ spam, filed }) => !spam && filed).length,
    ham: verdicts.filter(({ spam }) => !spam).length,
  });
  console.log(`\n${FOLDS}-fold cross-validation on the ${train.length} learnt: cut-off ${cutOff}`);
  console.log(`${"".padEnd(12)} ${"spam caught".padEnd(22)} genuine filed as spam`);
  console.log(row("Prism", count(prism)));
  console.log(row("bogofilter", count(bogofilter)));
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  if (cutOff !== SPAM_LEANING) {
    console.log(`SPAM_LEANING in classifier.ts is ${SPAM_LEANING}: set it to ${cutOff}`);
    process.exitCode = 1;
  }
}

/** Robinson's constants cross-validation chooses on the part learnt from. */
function tuneConstants(folds: Fold[]): void {
  const started = performance.now();
  const { constants, cutOff, caught } = tune(folds);
  const chosen = JSON.stringify(constants);
  console.log(
    `\nRobinson's constants, the best of ${CANDIDATES.length} on the ${FOLDS} folds: ${chosen}`,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`(cut-off ${cutOff}, ${caught} held-out spam caught; ${seconds} s)`);
  if (chosen !== JSON.stringify(ROBINSON)) {
    console.log(`ROBINSON in classifier.ts is ${JSON.stringify(ROBINSON)}: set it to ${chosen}`);
    process.exitCode = 1;
  }
}

const full = fullSplit();
const tuning = process.argv.includes("--tune");
if (tuning || process.argv.includes("--cut-off")) {
  const started = performance.now();
  const folds = foldsJudged(full.train);
  const learning = performance.now() - started;
  if (tuning) tuneConstants(folds);
  crossValidate(full.train, folds, learning);
}
if (process.argv.includes("--write-sample")) {
  writeFileSync(sampleFile(), `${JSON.stringify(sampleOf(full))}\n`);
  console.log(`Wrote ${SAMPLE.train} + ${SAMPLE.test} messages to ${sampleFile().pathname}`);
}
report("The whole corpus", full);
report("The test's fixed sample", readSample());
