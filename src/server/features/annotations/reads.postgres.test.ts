// A prism's annotations as read from memory, without HTTP: each viewer shown what they may see,
// everyone else who is not signed in one answer written once, all kept until an event moves
// what they were read from.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Annotation } from "../../../contract/annotations.ts";
import type { Participant, Viewer } from "../../actors.ts";
import {
  decideOnAnnotation,
  deleteAnnotationAsAdmin,
  respondToPassage,
} from "../../commands/annotations.ts";
import { annotations, type UserRow } from "../../db/schema.ts";
import type { Asker } from "../../plugins/visitor.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupTestLive, TEST_SECRET } from "../../test/helpers.ts";
import { personCheck } from "../../test/person-check.ts";
import { issueChallenge } from "../person-check/service.ts";
import { annotationReads } from "./reads.ts";

const t = setupTestLive();

/** An asker that these reads ask only who is looking, and their cookies. */
const asking = (viewer: Viewer, cookies: string): Asker => ({
  viewer,
  cookies,
  newBrowser: false,
  get participant(): Participant {
    throw new Error("A list of annotations does not ask for a participant");
  },
});
const member = (user: UserRow) => asking({ user, visitorHash: null }, `session-of-${user.id}|`);
const visitor = (name: string) =>
  asking({ user: null, visitorHash: `hash-of-${name}` }, `|${name}`);
const nobody = asking({ user: null, visitorHash: null }, "|");

/** A response by `participant`; a visitor's with the person check the dialog sends. */
async function respond(prismId: number, participant: Participant, annotationText: string) {
  const check = "user" in participant ? {} : await personCheck(await issueChallenge(TEST_SECRET));
  const { view } = await respondToPassage(
    { db: t.db, bus: t.bus, actor: participant },
    {
      prismId,
      annotationText,
      selectedText: "Mornings",
      selectionStart: 0,
      selectionEnd: 8,
      ...check,
    },
    TEST_SECRET,
  );
  return view.row.id;
}

async function decide(actor: UserRow, id: number, status: "approved" | "rejected") {
  await decideOnAnnotation({ db: t.db, bus: t.bus, actor }, id, status);
}

async function scene() {
  const reads = annotationReads(t);
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  /** What the asker is shown, whether made for them or written once for the public. */
  const shown = async (asker: Asker) => {
    const answer = await reads.list.read({ prismId: prism.id }, asker);
    const list: Annotation[] = "written" in answer ? JSON.parse(answer.written) : answer.value;
    return list.map(({ annotationText, status, isOwn, canModerate }) => ({
      annotationText,
      status,
      isOwn,
      canModerate,
    }));
  };
  return { reads, owner, prism, shown };
}

describe("a prism's annotations, read from memory", () => {
  it("shows pending ones to the owner, their author and admins only", async () => {
    const { owner, prism, shown } = await scene();
    const author = await buildUser(t.database);
    const admin = await buildUser(t.database, { isAdmin: true });
    const writer = visitor("writer");
    await respond(prism.id, { visitorHash: "hash-of-writer" }, "From a browser");
    await respond(prism.id, { user: author }, "From a member");
    const pending = { status: "pending", isOwn: false, canModerate: false };
    const fromBrowser = { ...pending, annotationText: "From a browser" };
    const fromMember = { ...pending, annotationText: "From a member" };

    expect(await shown(member(owner))).toEqual([
      { ...fromMember, canModerate: true },
      { ...fromBrowser, canModerate: true },
    ]);
    expect(await shown(member(admin))).toEqual([
      { ...fromMember, canModerate: true },
      { ...fromBrowser, canModerate: true },
    ]);
    expect(await shown(member(author))).toEqual([{ ...fromMember, isOwn: true }]);
    expect(await shown(writer)).toEqual([{ ...fromBrowser, isOwn: true }]);
    expect(await shown(visitor("reader"))).toEqual([]);
    expect(await shown(nobody)).toEqual([]);
    expect(await shown(member(await buildUser(t.database)))).toEqual([]);
  });

  it("writes one answer for everyone not signed in who wrote none of them, tagged by that answer", async () => {
    const { reads, owner, prism } = await scene();
    const reader = visitor("reader");
    const first = await reads.list.read({ prismId: prism.id }, reader);
    expect(first).toMatchObject({ written: "[]" });
    expect(first.etag?.()).toBeTruthy();
    expect(reads.list.etag({ prismId: prism.id }, reader)).toBe(first.etag?.());
    const writer = visitor("writer");
    // The browser that wrote one is shown its own list, under a tag of its own.
    const id = await respond(prism.id, { visitorHash: "hash-of-writer" }, "Not yet decided");
    const own = await reads.list.read({ prismId: prism.id }, writer);
    expect("value" in own && own.value.map((a) => a.isOwn)).toEqual([true]);
    expect(own.etag?.()).toBeTruthy();
    expect(own.etag?.()).not.toBe(first.etag?.());

    // A pending annotation leaves the public answer, and so its tag, as they were.
    const afterPending = await reads.list.read({ prismId: prism.id }, reader);
    expect(afterPending).toMatchObject({ written: "[]" });
    expect(afterPending.etag?.()).toBe(first.etag?.());
    await decide(owner, id, "approved");
    const afterApproval = await reads.list.read({ prismId: prism.id }, reader);
    expect("written" in afterApproval && JSON.parse(afterApproval.written)).toMatchObject([
      { annotationText: "Not yet decided", status: "approved" },
    ]);
    expect(afterApproval.etag?.()).not.toBe(first.etag?.());
  });

  it("keeps the list until a write or an admin's deletion announces a change", async () => {
    const { reads, owner, prism, shown } = await scene();
    const admin = await buildUser(t.database, { isAdmin: true });
    const asOwner = member(owner);
    const id = await respond(prism.id, { visitorHash: "hash-of-writer" }, "First words");
    const first = await reads.list.read({ prismId: prism.id }, asOwner);
    expect(reads.list.etag({ prismId: prism.id }, asOwner)).toBe(first.etag?.());

    // No event, no new version: the list comes from memory, not from the table.
    await t.db
      .update(annotations)
      .set({ annotationText: "Changed behind the app's back" })
      .where(eq(annotations.id, id));
    expect((await shown(asOwner)).map((a) => a.annotationText)).toEqual(["First words"]);

    // The owner's decision announces itself: the list is read afresh, the quiet change too.
    await decide(owner, id, "rejected");
    expect(reads.list.etag({ prismId: prism.id }, asOwner)).toBeUndefined();
    expect(await shown(asOwner)).toEqual([
      {
        annotationText: "Changed behind the app's back",
        status: "rejected",
        isOwn: false,
        canModerate: false,
      },
    ]);

    await deleteAnnotationAsAdmin({ db: t.db, bus: t.bus, actor: admin }, id);
    expect(reads.list.etag({ prismId: prism.id }, asOwner)).toBeUndefined();
    expect(await shown(asOwner)).toEqual([]);
  });
});
