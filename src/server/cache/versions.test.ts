// Versions.since: the events after a stamp, as far back as they are kept.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PrismEvent } from "../../contract/events.ts";
import { Versions } from "./versions.ts";

function bus() {
  const listeners = new Set<(event: PrismEvent, id: string) => void>();
  const resyncs = new Set<() => void>();
  return {
    subscribe(listener: (event: PrismEvent, id: string) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onResync(listener: () => void) {
      resyncs.add(listener);
      return () => resyncs.delete(listener);
    },
    emit: (event: PrismEvent) => {
      for (const listener of listeners) listener(event, "");
    },
    resync: () => {
      for (const listener of resyncs) listener();
    },
  };
}

const changed = (username: string): PrismEvent => ({ type: "prisms.changed", username });

afterEach(() => {
  vi.useRealTimers();
});

describe("Versions.since", () => {
  it("answers the events after a stamp, in order, and none for the current one", () => {
    const events = bus();
    const versions = new Versions(events, "secret");
    const before = versions.stamp();
    events.emit(changed("ada"));
    events.emit(changed("bob"));
    expect(versions.since(before)).toEqual([changed("ada"), changed("bob")]);
    expect(versions.since(versions.stamp())).toEqual([]);
  });

  it("does not know the events after a stamp of another boot, or of before a resync", () => {
    const events = bus();
    const versions = new Versions(events, "secret");
    const before = versions.stamp();
    expect(versions.since(`00000000-${before.split("-")[1]}`)).toBeNull();
    expect(versions.since("not a stamp")).toBeNull();
    events.resync();
    expect(versions.since(before)).toBeNull();
  });

  it("does not know events older than two minutes", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const events = bus();
    const versions = new Versions(events, "secret");
    const before = versions.stamp();
    events.emit(changed("ada"));
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect(versions.since(before)).toEqual([changed("ada")]);
    vi.setSystemTime(Date.now() + 1);
    expect(versions.since(before)).toBeNull();
  });
});
