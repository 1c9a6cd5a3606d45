// `npm run bench:spam`: Prism's content classifier beside Debian's bogofilter, both trained on
// the same two thirds of the SpamAssassin corpus (message bodies) and tested on the rest, and
// the same on the fixed sample the test reads. `-- --write-sample` writes that sample anew.
import { writeFileSync } from "node:fs";
import {
  fullSplit,
  readSample,
  SAMPLE,
  type Split,
  sampleFile,
  sampleOf,
} from "../tests/spam/corpus.ts";
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

const full = fullSplit();
if (process.argv.includes("--write-sample")) {
  writeFileSync(sampleFile(), `${JSON.stringify(sampleOf(full))}\n`);
  console.log(`Wrote ${SAMPLE.train} + ${SAMPLE.test} messages to ${sampleFile().pathname}`);
}
report("The whole corpus", full);
report("The test's fixed sample", readSample());
