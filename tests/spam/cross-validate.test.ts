// How the classifier's cut-off is chosen from the learning part alone (cross-validate.ts).
import { describe, expect, it } from "vitest";
import { emptyModel, learn, ROBINSON } from "../../src/server/features/annotations/classifier.ts";
import { chooseCutOff, type Fold, foldsOf, type HeldOut, tune } from "./cross-validate.ts";

const genuine = (leaning: number, bogofilter = false): HeldOut => ({
  spam: false,
  leaning,
  bogofilter,
});
const spam = (leaning: number): HeldOut => ({ spam: true, leaning, bogofilter: true });

describe("choosing the cut-off by cross-validation", () => {
  it("holds each message out once, learning from all the others", () => {
    const folds = foldsOf([0, 1, 2, 3, 4, 5, 6], 5);
    expect(folds.map(({ held }) => held)).toEqual([[0, 5], [1, 6], [2], [3], [4]]);
    for (const { learn, held } of folds)
      expect([...learn, ...held].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("misfiles no more genuine messages than bogofilter did on the same folds", () => {
    // bogofilter misfiled one genuine message, so Prism may misfile the one leaning furthest.
    const judged = [genuine(1.2), genuine(0.3464), genuine(0.2, true), genuine(-0.5), spam(0.9)];
    expect(chooseCutOff(judged)).toBe(0.35);
    expect(judged.filter(({ spam, leaning }) => !spam && leaning >= 0.35)).toHaveLength(1);
    // A leaning on a hundredth is itself left below the cut-off.
    expect(chooseCutOff([genuine(0.35), spam(1)])).toBe(0.36);
    // With no genuine message leaning towards spam, any leaning that way is spam.
    expect(chooseCutOff([genuine(-0.2), spam(0.1)])).toBe(0.01);
  });
});

describe("choosing Robinson's constants by cross-validation", () => {
  it("takes the candidate that catches the most held-out spam at its own cut-off", () => {
    const model = emptyModel();
    for (const text of ["cheap pills today", "cheap watches today"]) learn(model, text, "spam");
    for (const text of ["your passage today", "mornings first today"]) learn(model, text, "ham");
    const folds: Fold[] = [
      {
        model,
        held: [
          { spam: true, text: "cheap pills" },
          { spam: false, text: "your mornings" },
        ],
        bogofilter: [true, false],
      },
    ];
    // Hearing only words of a spamminess beyond 0.49 from 0.5, the model hears none of these.
    const deaf = { ...ROBINSON, minDev: 0.49 };
    expect(tune(folds, [deaf, ROBINSON])).toEqual({ constants: ROBINSON, cutOff: 0.01, caught: 1 });
    expect(tune(folds, [deaf])).toEqual({ constants: deaf, cutOff: 0.01, caught: 0 });
  });
});
