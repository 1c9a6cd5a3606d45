// Two instances of Prism on one database both hear that a member wrote a prism (one announced it,
// the other heard its NOTIFY), and both work out what followers are to be sent: the actor's row
// lock makes one of them send it, once; and however many plan the same change at the same moment,
// one of them sends it.
import { Accept, Create, Follow } from "@fedify/fedify/vocab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../app.ts";
import { planDeliveries } from "../../commands/federation.ts";
import { EventBus } from "../../live/bus.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { servePrism, setupFediverse } from "../../test/fediverse.ts";
import { signIn } from "../../test/helpers.ts";
import { actorOf } from "./service.ts";

const t = setupFediverse();
let second: { app: App; origin: string };

beforeAll(async () => {
  second = await servePrism(t.database, true, t.prism.origin);
});
afterAll(async () => {
  await second?.app.close();
});

describe("two instances of Prism", () => {
  it("send a new prism to a follower once", { timeout: 40_000 }, async () => {
    const ada = await buildUser(t.database, { username: "ada-twice", federated: true });
    const actor = new URL(`${t.prism.origin}/ap/actors/${ada.id}`);
    const ctx = t.remote.federation.createContext(new URL(t.remote.origin), undefined);
    const follow = new Follow({
      id: new URL(`${t.remote.origin}/follows/twice`),
      actor: t.remote.bob,
      object: actor,
    });
    const inboxId = new URL(`${actor.href}/inbox`);
    await ctx.sendActivity({ identifier: "bob" }, { id: actor, inboxId }, follow);
    const arrived = <T>(type: new (...args: never[]) => T) =>
      t.remote.received.filter((activity) => activity instanceof type);
    await expect.poll(() => arrived(Accept).length, { timeout: 20_000 }).toBe(1);

    const written = await second.app.inject({
      method: "POST",
      url: "/api/prisms",
      headers: {
        ...(await signIn(t.database, ada)),
        origin: t.prism.origin,
        "content-type": "application/json",
      },
      payload: { title: "Once only", content: "<p>Sent once.</p>" },
    });
    expect(written.statusCode).toBe(201);
    await expect.poll(() => arrived(Create).length, { timeout: 20_000 }).toBe(1);
    // Both instances have had time to plan and send by now: still one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrived(Create)).toHaveLength(1);
  });

  it("plan a change once however many plan it at the same time", async () => {
    const lin = await buildUser(t.database, { username: "lin-twice", federated: true });
    await actorOf(t.database.db, lin);
    await buildPrism(t.database, { userId: lin.id, title: "Raced" });
    const write = { db: t.database.db, bus: new EventBus(t.database), actor: null };
    const plans = await Promise.all(
      Array.from({ length: 4 }, () => planDeliveries(write, "lin-twice")),
    );
    const created = plans.flat().flatMap((plan) => plan.created.map((prism) => prism.title));
    expect(created).toEqual(["Raced"]);
  });
});
