// A member's prisms without HTTP: the page's limit, indexes kept a dense 0..n-1 through creating,
// deleting and moving, and only the owner writing.
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { limits } from "../../../contract/limits.ts";
import type { MoveDirection, PrismInput } from "../../../contract/prisms.ts";
import { prismMessages } from "../../../contract/prisms.ts";
import type { Responders } from "../../../contract/responders.ts";
import * as commands from "../../commands/prisms.ts";
import { prisms, type UserRow } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestDatabase } from "../../test/helpers.ts";
import { run } from "../../test/write.ts";
import { listPrisms } from "./service.ts";

const t = setupTestDatabase();

/** The writes as their routes make them (commands/prisms.ts), with the events they announced. */
const createPrism = (owner: UserRow, input: PrismInput) =>
  run(t.database, owner, (write) => commands.createPrism(write, input), "prism");
const deletePrism = (actor: UserRow, prismId: number) =>
  run(t.database, actor, (write) => commands.deletePrism(write, prismId));
const movePrism = (actor: UserRow, prismId: number, direction: MoveDirection) =>
  run(t.database, actor, (write) => commands.movePrism(write, prismId, direction), "prism");
const setResponders = (actor: UserRow, prismId: number, responders: Responders) =>
  run(t.database, actor, (write) => commands.setResponders(write, prismId, responders), "prism");

/** A member with prisms titled as given, at indexes 0..n-1, and the id of each by its title. */
async function memberWith(...titles: string[]) {
  const owner = await buildUser(t.database);
  const ids = new Map<string, number>();
  for (const [index, title] of titles.entries()) {
    ids.set(title, (await buildPrism(t.database, { userId: owner.id, title, index })).id);
  }
  return { owner, id: (title: string) => ids.get(title) ?? 0 };
}

async function pageOf(owner: UserRow) {
  const rows = await t.database.db
    .select()
    .from(prisms)
    .where(eq(prisms.userId, owner.id))
    .orderBy(asc(prisms.index));
  return rows.map((row) => `${row.index}:${row.title}`);
}

const changed = (owner: UserRow, ...prismIds: number[]) => ({
  type: "prisms.changed",
  username: owner.username,
  prismIds,
});

describe("createPrism", () => {
  it("adds a sanitized prism at the end of the member's page", async () => {
    const { owner } = await memberWith("First", "Second");
    const { prism, events } = await createPrism(owner, {
      title: " Third <b>one</b> ",
      content: "<p>Hi<script>alert(1)</script></p>",
    });
    expect(prism).toMatchObject({ title: "Third one", content: "<p>Hi</p>", index: 2 });
    expect(await pageOf(owner)).toEqual(["0:First", "1:Second", "2:Third one"]);
    expect(events).toEqual([changed(owner, prism.id)]);
  });

  it(`holds a page to ${limits.prismsPerMember} prisms, storing nothing past them`, async () => {
    const owner = await buildUser(t.database);
    await t.database.db.insert(prisms).values(
      Array.from({ length: limits.prismsPerMember - 1 }, (_, index) => ({
        userId: owner.id,
        title: `Prism ${index}`,
        index,
      })),
    );
    const last = await createPrism(owner, { title: "The last", content: "" });
    expect(last.prism.index).toBe(limits.prismsPerMember - 1);
    await expect(createPrism(owner, { title: "One too many", content: "" })).rejects.toMatchObject({
      statusCode: 409,
      message: prismMessages.tooMany,
    });
    expect(await pageOf(owner)).toHaveLength(limits.prismsPerMember);
  });

  it("refuses a title that sanitizes to nothing and text over the limit as stored", async () => {
    const owner = await buildUser(t.database);
    await expect(createPrism(owner, { title: "<i></i>", content: "" })).rejects.toMatchObject({
      statusCode: 400,
      errors: { title: prismMessages.titleRequired },
    });
    await expect(
      createPrism(owner, { title: "Big", content: "&".repeat(20 * 1024) }),
    ).rejects.toMatchObject({ statusCode: 400, errors: { content: prismMessages.contentTooLong } });
    expect(await pageOf(owner)).toEqual([]);
  });

  it("keeps indexes dense when a member creates several at once", async () => {
    const owner = await buildUser(t.database);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => createPrism(owner, { title: `P${i}`, content: "" })),
    );
    const indexes = (await listPrisms(t.database.db, owner.id)).map((p) => p.index);
    expect(indexes).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("deletePrism", () => {
  it("deletes the owner's prism and moves the ones below it up", async () => {
    const { owner, id } = await memberWith("A", "B", "C");
    const { events } = await deletePrism(owner, id("B"));
    expect(await pageOf(owner)).toEqual(["0:A", "1:C"]);
    expect(events).toEqual([
      changed(owner, id("B")),
      { type: "notifications.changed", userId: owner.id },
    ]);
  });

  it("lets nobody else delete it, an admin neither (Catalyst has its own call), and 404s a missing one", async () => {
    const { owner, id } = await memberWith("Mine");
    const admin = await buildUser(t.database, { isAdmin: true });
    for (const actor of [await buildUser(t.database), admin]) {
      await expect(deletePrism(actor, id("Mine"))).rejects.toMatchObject({
        statusCode: 403,
        message: "Only the owner can change this prism",
      });
    }
    await expect(deletePrism(owner, 2 ** 31 - 1)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await pageOf(owner)).toEqual(["0:Mine"]);
  });
});

describe("movePrism", () => {
  it("swaps a prism with its neighbour, and refuses to move past either end", async () => {
    const { owner, id } = await memberWith("A", "B", "C");
    const moved = await movePrism(owner, id("C"), "up");
    expect(moved.prism.index).toBe(1);
    expect(moved.events).toEqual([changed(owner, id("C"), id("B"))]);
    expect(await pageOf(owner)).toEqual(["0:A", "1:C", "2:B"]);
    await expect(movePrism(owner, id("A"), "up")).rejects.toMatchObject({
      statusCode: 400,
      message: "This prism is already first",
    });
    await movePrism(owner, id("A"), "down");
    await movePrism(owner, id("A"), "down");
    await expect(movePrism(owner, id("A"), "down")).rejects.toMatchObject({
      statusCode: 400,
      message: "This prism is already last",
    });
    expect(await pageOf(owner)).toEqual(["0:C", "1:B", "2:A"]);
  });

  it("lets nobody else move it", async () => {
    const { owner, id } = await memberWith("A", "B");
    const admin = await buildUser(t.database, { isAdmin: true });
    await expect(movePrism(admin, id("B"), "up")).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(await pageOf(owner)).toEqual(["0:A", "1:B"]);
  });
});

describe("setResponders", () => {
  it("lets the owner choose who may respond, and nobody else", async () => {
    const { owner, id } = await memberWith("Open");
    const stranger = await buildUser(t.database);
    await expect(setResponders(stranger, id("Open"), "no-one")).rejects.toMatchObject({
      statusCode: 403,
    });
    const { prism: changedPrism, events } = await setResponders(owner, id("Open"), "members");
    expect(changedPrism.responders).toBe("members");
    expect(events).toEqual([changed(owner, id("Open"))]);
  });
});
