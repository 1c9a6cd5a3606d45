// waitUntil: never a moment early on performance.now(), which a timer alone often is.
import { describe, expect, it } from "vitest";
import { waitUntil } from "./wait.ts";

describe("waitUntil", () => {
  it("resolves only once performance.now() has reached the moment", async () => {
    for (let i = 0; i < 50; i++) {
      // A start part-way through a millisecond, as a dialog opens at any moment.
      await new Promise((resolve) => setTimeout(resolve, (i % 7) / 3));
      const start = performance.now();
      await waitUntil(start + 10);
      expect(performance.now() - start).toBeGreaterThanOrEqual(10);
    }
  });

  it("resolves at once for a moment already past", async () => {
    let done = false;
    const waited = waitUntil(performance.now() - 1).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(true);
    await waited;
  });
});
