// The event bus between instances: every instance hears an event under the name it was announced
// with, and a request that names an event can wait until this process has heard it.
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { PrismEvent } from "../../contract/events.ts";
import { setupTestDatabase } from "../test/helpers.ts";
import { EventBus, HEARD_WAIT_MS } from "./bus.ts";

const t = setupTestDatabase();

/** Two instances' buses on one database; only the second listens. */
async function instances() {
  const here = new EventBus(t.database);
  const elsewhere = new EventBus(t.database);
  await elsewhere.start();
  onTestFinished(() => elsewhere.stop());
  const heard = { here: [] as string[], elsewhere: [] as string[] };
  here.subscribe((_event, id) => heard.here.push(id));
  elsewhere.subscribe((_event, id) => heard.elsewhere.push(id));
  return { here, elsewhere, heard };
}

const changed: PrismEvent = { type: "prisms.changed", username: "ada" };

afterEach(() => {
  vi.useRealTimers();
});

describe("EventBus", () => {
  it("names each event once, and another instance hears it under that name", async () => {
    const { here, heard } = await instances();
    await here.publish(changed, { type: "profile.changed", username: "ada" });
    expect(heard.here).toHaveLength(2);
    expect(new Set(heard.here).size).toBe(2);
    await vi.waitFor(() => expect(heard.elsewhere).toEqual(heard.here));
  });

  it("lets a request wait for an event announced elsewhere until this instance hears it", async () => {
    const { here, elsewhere, heard } = await instances();
    let waiting: Promise<void> | undefined;
    // Before the NOTIFY is sent: the other instance cannot have heard it.
    here.subscribe((_event, id) => {
      waiting = elsewhere.whenHeard(id);
    });
    await here.publish(changed);
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    expect(heard.elsewhere).toEqual(heard.here);
    // Heard: no more waiting.
    expect(elsewhere.whenHeard(heard.here[0] as string)).toBeUndefined();
  });

  it("does not wait for its own events, for events of long ago, or for what is no name", async () => {
    const { here, heard } = await instances();
    await here.publish(changed);
    expect(here.whenHeard(heard.here[0] as string)).toBeUndefined();
    const [from] = (heard.here[0] as string).split("/");
    const other = `${from}-elsewhere`;
    expect(here.whenHeard(`${other}/1/${Date.now() - HEARD_WAIT_MS}`)).toBeUndefined();
    expect(here.whenHeard("not a name")).toBeUndefined();
    expect(here.whenHeard(`${other}/1/soon`)).toBeUndefined();
  });

  it("waits at most a moment for an event it never hears, even one named in the future", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const here = new EventBus(t.database);
    const waited: string[] = [];
    void here.whenHeard(`lost/1/${Date.now()}`)?.then(() => waited.push("lost"));
    void here.whenHeard(`future/1/${Date.now() + 60_000}`)?.then(() => waited.push("future"));
    await vi.advanceTimersByTimeAsync(HEARD_WAIT_MS - 1);
    expect(waited).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(waited.sort()).toEqual(["future", "lost"]);
  });
});
