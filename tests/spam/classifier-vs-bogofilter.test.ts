// Prism's content classifier against something we did not write: Debian's bogofilter, trained on
// the same fixed sample of the SpamAssassin corpus (message bodies) and tested on the same other
// part of it. Prism's must catch at least as much spam, filing no more genuine messages as spam.
// bogofilter must be installed (.ci/run installs it); without it this test fails, saying how.
import { describe, expect, it } from "vitest";
import { readSample, SAMPLE } from "./corpus.ts";
import { compare } from "./measure.ts";

describe("the content classifier beside bogofilter", () => {
  it("catches at least as much spam, with no more genuine messages misfiled", () => {
    const sample = readSample();
    expect(sample.train).toHaveLength(SAMPLE.train);
    expect(sample.test).toHaveLength(SAMPLE.test);
    const { prism, bogofilter } = compare(sample);
    // Both filters were asked of every test message, spam and genuine alike.
    expect(prism.spam + prism.ham).toBe(SAMPLE.test);
    expect(bogofilter.spam).toBe(prism.spam);
    expect(bogofilter.spamCaught).toBeGreaterThan(0);
    expect(prism.spamCaught).toBeGreaterThanOrEqual(bogofilter.spamCaught);
    expect(prism.hamMisfiled).toBeLessThanOrEqual(bogofilter.hamMisfiled);
  });
});
