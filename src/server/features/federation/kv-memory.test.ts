// The key–value store's memory when reads and writes of one key overlap: a read that a write
// overlapped keeps nothing of what it read, and of two writes that overlapped neither is kept,
// since which of them the database holds last is not known; the next read asks the database.
import { describe, expect, it } from "vitest";
import { KvMemory, type Remembered } from "./kv-memory.ts";

/** A piece of work that ends when told to. */
function deferred() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
}

const holding = (json: string): Remembered => ({ json, expiresAt: null });

describe("the key-value store's memory", () => {
  it("keeps what a read found, or a write wrote, when nothing overlapped it", async () => {
    const memory = new KvMemory(10, 60_000);
    await memory.run("k", false, async () => "1", holding);
    expect(memory.recall("k")?.json).toBe("1");
    await memory.run("k", true, async () => "2", holding);
    expect(memory.recall("k")?.json).toBe("2");
    await memory.run(
      "k",
      true,
      async () => undefined,
      () => null,
    );
    expect(memory.recall("k")).toBeUndefined();
  });

  it("keeps nothing a write overlapped, whichever ends first", async () => {
    const memory = new KvMemory(10, 60_000);
    const read = deferred();
    const reading = memory.run("k", false, () => read.done.then(() => "old"), holding);
    const write = deferred();
    const writing = memory.run("k", true, () => write.done.then(() => "new"), holding);
    write.finish();
    await writing;
    read.finish();
    await reading;
    expect(memory.recall("k")?.json).toBe("new");

    const first = deferred();
    const second = deferred();
    const one = memory.run("k", true, () => first.done.then(() => "one"), holding);
    const two = memory.run("k", true, () => second.done.then(() => "two"), holding);
    second.finish();
    await two;
    first.finish();
    await one;
    expect(memory.recall("k")).toBeUndefined();

    // A read that began while a write was under way keeps nothing either.
    const third = deferred();
    const writingAgain = memory.run("k", true, () => third.done.then(() => "three"), holding);
    const readDuring = memory.run("k", false, async () => "stale", holding);
    await readDuring;
    expect(memory.recall("k")).toBeUndefined();
    third.finish();
    await writingAgain;
    expect(memory.recall("k")?.json).toBe("three");
  });

  it("keeps a value no longer than its own time, nor the memory's age, and the most recent", async () => {
    const memory = new KvMemory(2, 60_000);
    const expired = { json: "gone", expiresAt: Date.now() - 1 };
    await memory.run(
      "past",
      false,
      async () => "gone",
      () => expired,
    );
    expect(memory.recall("past")).toBeUndefined();

    const young = new KvMemory(10, 20);
    await young.run("k", false, async () => "1", holding);
    expect(young.recall("k")?.json).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(young.recall("k")).toBeUndefined();

    for (const key of ["a", "b"]) await memory.run(key, false, async () => key, holding);
    expect(memory.recall("a")?.json).toBe("a");
    await memory.run("c", false, async () => "c", holding);
    expect(memory.recall("b")).toBeUndefined();
    expect(memory.recall("a")?.json).toBe("a");
  });
});
