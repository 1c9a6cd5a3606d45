// The bound on the inbox's work at once: no more than its size run together, the rest start in
// the order they came as places free, a work that fails frees its place too.
import { describe, expect, it } from "vitest";
import { Bounded } from "./bounded.ts";

/** A work that runs until `finish` is called, noting when it started. */
function pendingWork(started: number[], n: number) {
  let finish: (value: number) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const work = () => {
    started.push(n);
    return new Promise<number>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { work, finish: () => finish(n), fail: () => fail(new Error(`work ${n} failed`)) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a bound on work at once", () => {
  it("runs no more than its size together, the rest in the order they came", async () => {
    const bounded = new Bounded(2);
    const started: number[] = [];
    const works = [1, 2, 3, 4, 5].map((n) => pendingWork(started, n));
    const answers = works.map(({ work }) => bounded.run(work));
    const firstFails = expect(answers[0]).rejects.toThrow("work 1 failed");
    await settle();
    expect(started).toEqual([1, 2]);
    works[1]?.finish();
    await settle();
    expect(started).toEqual([1, 2, 3]);
    works[0]?.fail();
    await settle();
    expect(started).toEqual([1, 2, 3, 4]);
    works[2]?.finish();
    await settle();
    expect(started).toEqual([1, 2, 3, 4, 5]);
    works[3]?.finish();
    works[4]?.finish();
    await firstFails;
    expect(await Promise.all(answers.slice(1))).toEqual([2, 3, 4, 5]);
  });

  it("starts work at once while a place is free", async () => {
    const bounded = new Bounded(1);
    expect(await bounded.run(async () => "first")).toBe("first");
    expect(await bounded.run(async () => "second")).toBe("second");
  });
});
