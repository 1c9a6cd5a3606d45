// A rate-limit store that records what the limits do with their counters, for tests that count
// work instead of timing it.
import { type LimitStore, memoryStore } from "../plugins/rate-limit-store.ts";

export interface CounterOperation {
  /** The limit's name. */
  name: string;
  operation: "spend" | "refund" | "forget";
  key: string;
}

/** The memory store, recording each operation on a counter in `operations`. */
export function countingStore(operations: CounterOperation[]): LimitStore {
  const store = memoryStore();
  return {
    counters(name, points, seconds) {
      const counters = store.counters(name, points, seconds);
      return {
        spend(key) {
          operations.push({ name, operation: "spend", key });
          return counters.spend(key);
        },
        refund(key) {
          operations.push({ name, operation: "refund", key });
          return counters.refund(key);
        },
        forget(key) {
          operations.push({ name, operation: "forget", key });
          return counters.forget(key);
        },
      };
    },
  };
}
