// Debian's bogofilter, run as its own program on a wordlist of its own in a temporary folder:
// trained on messages (`-s` spam, `-n` ham), then asked of each test message (`-T`). Its own
// defaults (`-C`: no configuration file read), so any machine answers alike.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "./corpus.ts";

export const INSTALL_BOGOFILTER =
  "bogofilter is not installed: install it (Debian: `apt-get install -y bogofilter`), which .ci/run does";

/** The files given to one run of bogofilter, so that no command line grows too long. */
const FILES_A_RUN = 500;

/** Runs bogofilter; fails with how to install it when it is not there. */
function bogofilter(args: string[]): string {
  const run = spawnSync("bogofilter", ["-C", ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.error && "code" in run.error && run.error.code === "ENOENT") {
    throw new Error(INSTALL_BOGOFILTER);
  }
  if (run.error) throw run.error;
  // -T's exit status tells spam (0), ham (1) or unsure (2); 3 is an error.
  if (run.status === 3 || run.status === null) {
    throw new Error(`bogofilter ${args.slice(0, 3).join(" ")} failed: ${run.stderr}`);
  }
  return run.stdout;
}

/** The files in runs of FILES_A_RUN. */
function inRuns(files: string[]): string[][] {
  const runs: string[][] = [];
  for (let i = 0; i < files.length; i += FILES_A_RUN) runs.push(files.slice(i, i + FILES_A_RUN));
  return runs;
}

/**
 * Trains a fresh bogofilter on `train` and answers, for each of `test`, whether it files it as
 * spam (its "S"; "U", unsure, is not spam).
 */
export function bogofilterVerdicts(train: Message[], test: Message[]): boolean[] {
  const dir = mkdtempSync(join(tmpdir(), "prism-bogofilter-"));
  try {
    // A bare header so that bogofilter reads what follows as the body, as it is.
    const write = (name: string, { text }: Message) => {
      const path = join(dir, name);
      writeFileSync(path, `X-Corpus: sample\n\n${text}\n`);
      return path;
    };
    const trainFiles = train.map((message, i) => ({
      spam: message.spam,
      path: write(`train-${i}`, message),
    }));
    for (const [flag, spam] of [
      ["-s", true],
      ["-n", false],
    ] as const) {
      const files = trainFiles.filter((file) => file.spam === spam).map(({ path }) => path);
      for (const run of inRuns(files)) bogofilter(["-d", dir, flag, "-B", ...run]);
    }
    const testFiles = test.map((message, i) => write(`test-${i}`, message));
    const verdicts = new Map<string, string>();
    for (const run of inRuns(testFiles)) {
      for (const line of bogofilter(["-d", dir, "-T", "-B", ...run])
        .trim()
        .split("\n")) {
        const [path, verdict] = line.split(" ");
        if (path && verdict) verdicts.set(path, verdict);
      }
    }
    return testFiles.map((path) => {
      const verdict = verdicts.get(path);
      if (!verdict) throw new Error(`bogofilter gave no verdict for ${path}`);
      return verdict === "S";
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
