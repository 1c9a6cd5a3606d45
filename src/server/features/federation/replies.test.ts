// Replies from the fediverse, over HTTP between Prism and another Fedify server: bob's reply to a
// prism arrives as a pending response (on the passage it quotes, else on the prism's opening),
// its owner told; a prism for members only refuses it; bob's Update and Delete edit and withdraw
// it, eve's do nothing; the owner's approval and reply go back to bob as a Note; the outbox
// never shows it. A Like of a prism is a heart, counted once per actor, and its Undo takes it back.
import {
  type Activity,
  Create,
  Delete,
  Like,
  Note,
  Tombstone,
  Undo,
  Update,
} from "@fedify/fedify/vocab";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type PrismRow, prisms, type UserRow } from "../../db/schema.ts";
import { buildPrism, buildUser } from "../../test/builders.ts";
import { setupFediverse } from "../../test/fediverse.ts";
import { signIn } from "../../test/helpers.ts";
import { passageOf, replyTextOf } from "./replies.ts";

const t = setupFediverse();
let ada: UserRow;
let essay: PrismRow;
let session: Record<string, string>;

const ESSAY = "<p>Mornings are for deep work. Afternoons are for meetings and mail.</p>";

beforeAll(async () => {
  ada = await buildUser(t.database, { username: "ada-replies", federated: true });
  essay = await buildPrism(t.database, { userId: ada.id, title: "How I work", content: ESSAY });
  session = await signIn(t.database, ada);
});

const actorOfAda = () => new URL(`${t.prism.origin}/ap/actors/${ada.id}`);
const articleOf = (prismId: number) => new URL(`${t.prism.origin}/ap/prisms/${prismId}`);
const actorNamed = (name: string) => new URL(`${t.remote.origin}/users/${name}`);
const noteId = (n: number) => new URL(`${t.remote.origin}/notes/${n}`);

/** `name` (bob unless told) sends Ada's inbox an activity, signed by his server. */
async function send(activity: Activity, name = "bob") {
  const ctx = t.remote.federation.createContext(new URL(t.remote.origin), undefined);
  const inboxId = new URL(`${actorOfAda().href}/inbox`);
  await ctx.sendActivity({ identifier: name }, { id: actorOfAda(), inboxId }, activity);
}

/** bob's note number `n`, replying to `target`. */
const note = (n: number, content: string, target: URL, name = "bob") =>
  new Note({
    id: noteId(n),
    attribution: actorNamed(name),
    replyTarget: target,
    content,
    url: new URL(`${t.remote.origin}/@${name}/${n}`),
  });

const reply = (n: number, content: string, target = articleOf(essay.id)) =>
  send(
    new Create({
      id: new URL(`${noteId(n).href}/create`),
      actor: t.remote.bob,
      object: note(n, content, target),
    }),
  );

const asAda = (method: "GET" | "PUT", url: string, payload?: object) =>
  t.prism.app.inject({
    method,
    url,
    headers: { ...session, origin: t.prism.origin, "content-type": "application/json" },
    ...(payload ? { payload } : {}),
  });

interface Listed {
  id: number;
  annotationText: string;
  selectedText: string;
  status: string;
  authorName: string | null;
  authorUrl?: string;
}

/** The responses to a prism, as its owner sees them. */
async function responses(prismId = essay.id): Promise<Listed[]> {
  const listed = await asAda("GET", `/api/prisms/${prismId}/annotations`);
  expect(listed.statusCode).toBe(200);
  const body = listed.json();
  return (Array.isArray(body) ? body : body.annotations) as Listed[];
}

const POLL = { timeout: 20_000 };

describe("what a reply answers", () => {
  const text = "Mornings are for deep work. Afternoons are for meetings and mail.";

  it("takes the passage a note quotes, in quotation marks or a blockquote, in any case", () => {
    expect(passageOf("<p>“afternoons are for meetings” — not mine!</p>", text)).toEqual({
      start: 28,
      end: 55,
    });
    expect(passageOf("<blockquote>deep work</blockquote><p>Yes.</p>", text)).toEqual({
      start: 17,
      end: 26,
    });
  });

  it("takes the prism's opening when the note quotes nothing of it", () => {
    expect(passageOf('<p>"Something else" entirely</p>', text)).toEqual({
      start: 0,
      end: text.length,
    });
  });

  it("takes the opening of a long prism up to its last whole word that fits", () => {
    const long = `${"word ".repeat(250)}end`;
    const opening = passageOf("<p>Nice.</p>", long);
    expect(opening).toEqual({ start: 0, end: 999 });
    expect(long.slice(0, opening?.end)).toMatch(/word$/);
  });

  it("leaves out the mentions a server puts first", () => {
    expect(
      replyTextOf(
        '<p><span class="h-card"><a href="https://x">@<span>ada</span></a></span> Lovely.</p>',
      ),
    ).toBe("Lovely.");
  });
});

describe("a reply from the fediverse", () => {
  it("arrives pending on the passage it quotes, its author named, the owner told", {
    timeout: 30_000,
  }, async () => {
    await reply(1, "<p>@ada-replies “Afternoons are for meetings” — not at my place.</p>");
    await expect.poll(async () => (await responses()).length, POLL).toBe(1);
    const [arrived] = await responses();
    expect(arrived).toMatchObject({
      status: "pending",
      selectedText: "Afternoons are for meetings",
      annotationText: "“Afternoons are for meetings” — not at my place.",
      authorName: `Bob (@bob@${new URL(t.remote.origin).host})`,
      authorUrl: `${t.remote.origin}/@bob/1`,
    });
    const notifications = await asAda("GET", "/api/notifications");
    expect(JSON.stringify(notifications.json())).toContain("@bob@");
  });

  it("arrives on the whole prism when it quotes nothing, from its page's address too", {
    timeout: 30_000,
  }, async () => {
    await reply(
      2,
      "<p>Great read.</p>",
      new URL(`${t.prism.origin}/ada-replies?prism=${essay.id}`),
    );
    await expect.poll(async () => (await responses()).length, POLL).toBe(2);
    const found = (await responses()).find((row) => row.annotationText === "Great read.");
    expect(found?.selectedText).toBe(
      "Mornings are for deep work. Afternoons are for meetings and mail.",
    );
    expect(found?.status).toBe("pending");
  });

  it("is refused by a prism for members only", { timeout: 30_000 }, async () => {
    const closed = await buildPrism(t.database, {
      userId: ada.id,
      title: "Members",
      content: "<p>For members.</p>",
      responders: "members",
      index: 1,
    });
    await reply(3, "<p>Let me in.</p>", articleOf(closed.id));
    // A later reply to the open prism arrives: the refused one had been handled before it.
    await reply(4, "<p>Second thought.</p>");
    await expect.poll(async () => (await responses()).length, POLL).toBe(3);
    expect(await responses(closed.id)).toEqual([]);
  });

  it("is edited and withdrawn by its author, never by anyone else", {
    timeout: 40_000,
  }, async () => {
    const edit = (name: string, content: string) =>
      send(
        new Update({
          id: new URL(`${noteId(2).href}/update-${name}`),
          actor: actorNamed(name),
          object: note(2, content, articleOf(essay.id), name),
        }),
        name,
      );
    await edit("eve", "<p>Eve was here.</p>");
    await edit("bob", "<p>Great read, truly.</p>");
    await expect
      .poll(async () => (await responses()).map((row) => row.annotationText), POLL)
      .toContain("Great read, truly.");
    expect((await responses()).map((row) => row.annotationText)).not.toContain("Eve was here.");

    const withdraw = (name: string) =>
      send(
        new Delete({
          id: new URL(`${noteId(4).href}/delete-${name}`),
          actor: actorNamed(name),
          object: new Tombstone({ id: noteId(4) }),
        }),
        name,
      );
    await withdraw("eve");
    await withdraw("bob");
    await expect
      .poll(async () => (await responses()).map((row) => row.annotationText), POLL)
      .not.toContain("Second thought.");
    expect(await responses()).toHaveLength(2);
  });

  it("never appears in the outbox", async () => {
    const outbox = await t.prism.app.inject({
      method: "GET",
      url: `/ap/actors/${ada.id}/outbox?cursor=`,
      headers: { accept: "application/activity+json" },
    });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.body).toContain(`/ap/prisms/${essay.id}`);
    expect(outbox.body).not.toContain("not at my place");
    expect(outbox.body).not.toContain("Great read");
  });

  it("is answered on bob's server when the owner approves and replies", {
    timeout: 40_000,
  }, async () => {
    const [quoted] = (await responses()).filter((row) => row.selectedText.startsWith("Afternoons"));
    if (!quoted) throw new Error("the quoted reply is not there");
    const answered = await asAda("PUT", `/api/annotations/${quoted.id}/reply`, {
      text: "Fair: mine are quieter.",
    });
    expect(answered.statusCode).toBe(200);
    const notes = () =>
      t.remote.received.filter(
        (activity) =>
          activity instanceof Create && activity.objectId?.href.includes("/ap/replies/"),
      );
    await expect.poll(() => notes().length, POLL).toBe(1);
    const sent = (await notes()[0]?.getObject()) as Note;
    expect(sent).toBeInstanceOf(Note);
    expect(sent.replyTargetId?.href).toBe(noteId(1).href);
    expect(sent.toIds.map((id) => id.href)).toEqual([t.remote.bob.href]);
    expect(sent.content?.toString()).toContain("Fair: mine are quieter.");
    expect((await responses()).find((row) => row.id === quoted.id)?.status).toBe("approved");

    // The answer is there to fetch; a reply still pending has none.
    const fetchNote = (path: string) =>
      t.prism.app.inject({
        method: "GET",
        url: path,
        headers: { accept: "application/activity+json" },
      });
    const answer = await fetchNote(new URL(sent.id?.href ?? "").pathname);
    expect(answer.json().inReplyTo).toBe(noteId(1).href);
    const [pending] = (await responses()).filter((row) => row.status === "pending");
    expect((await fetchNote(`/ap/replies/${pending?.id}`)).statusCode).toBe(404);
  });

  it("is not answered on bob's server once its prism is no longer public", {
    timeout: 40_000,
  }, async () => {
    const later = await buildPrism(t.database, {
      userId: ada.id,
      title: "Between us",
      content: ESSAY,
      index: 1,
    });
    await reply(30, "<p>Afternoons for meetings, same here.</p>", articleOf(later.id));
    await expect.poll(async () => (await responses(later.id)).length, POLL).toBe(1);
    const [toPrivate] = await responses(later.id);
    const [toPublic] = (await responses()).filter((row) => row.status === "pending");
    if (!toPrivate || !toPublic) throw new Error("the replies to answer are not there");
    await t.database.db.update(prisms).set({ audience: "private" }).where(eq(prisms.id, later.id));

    for (const { id } of [toPrivate, toPublic]) {
      const answered = await asAda("PUT", `/api/annotations/${id}/reply`, { text: "Thank you." });
      expect(answered.statusCode).toBe(200);
    }
    // The answer on the public prism, given last, reaches bob; the one on the private prism never.
    const answers = () =>
      t.remote.received
        .filter((activity) => activity instanceof Create)
        .map((activity) => activity.objectId?.pathname);
    await expect.poll(answers, POLL).toContain(`/ap/replies/${toPublic.id}`);
    expect(answers()).not.toContain(`/ap/replies/${toPrivate.id}`);
  });
});

describe("an owner's rules for responses without an account", () => {
  it("set a reply with a link aside as spam, unannounced, when the owner says so", {
    timeout: 30_000,
  }, async () => {
    const cy = await buildUser(t.database, { federated: true, anonymousLinks: "spam" });
    const strict = await buildPrism(t.database, { userId: cy.id, content: ESSAY });
    await reply(20, "<p>Buy now at https://spam.example/deal</p>", articleOf(strict.id));
    const cySession = await signIn(t.database, cy);
    const asCy = (url: string) =>
      t.prism.app.inject({ method: "GET", url, headers: { ...cySession, origin: t.prism.origin } });
    // It is in the owner's Spam folder, and nowhere on the prism's page.
    await expect
      .poll(async () => (await asCy("/api/annotations/review?status=spam")).body, POLL)
      .toContain("spam.example");
    expect((await asCy(`/api/prisms/${strict.id}/annotations`)).json()).toEqual([]);
    expect((await asCy("/api/notifications")).body).not.toContain("@bob@");
  });

  it("refuse a reply when the owner takes members' responses only", {
    timeout: 30_000,
  }, async () => {
    const dee = await buildUser(t.database, { federated: true, anonymousResponses: "members" });
    const closed = await buildPrism(t.database, { userId: dee.id, content: ESSAY });
    const open = await buildPrism(t.database, { userId: ada.id, content: ESSAY, index: 3 });
    await reply(21, "<p>Hello Dee.</p>", articleOf(closed.id));
    await reply(22, "<p>Hello Ada.</p>", articleOf(open.id));
    await expect.poll(async () => (await responses(open.id)).length, POLL).toBe(1);
    const deeSession = await signIn(t.database, dee);
    const listed = await t.prism.app.inject({
      method: "GET",
      url: `/api/prisms/${closed.id}/annotations`,
      headers: { ...deeSession, origin: t.prism.origin },
    });
    expect(listed.body).not.toContain("Hello Dee.");
  });
});

describe("a Like from the fediverse", () => {
  it("is a heart, once per actor, taken back by its Undo", { timeout: 40_000 }, async () => {
    const liked = await buildPrism(t.database, {
      userId: ada.id,
      title: "Liked",
      content: "<p>Like me.</p>",
      index: 2,
    });
    const hearts = async () => {
      const [row] = await t.database.db
        .select({ n: prisms.heartsCount })
        .from(prisms)
        .where(eq(prisms.id, liked.id));
      return row?.n;
    };
    const like = (name: string, n: number) =>
      new Like({
        id: new URL(`${t.remote.origin}/likes/${name}-${n}`),
        actor: actorNamed(name),
        object: articleOf(liked.id),
      });
    await send(like("bob", 1));
    await send(like("bob", 2));
    await send(like("eve", 1), "eve");
    await expect.poll(hearts, POLL).toBe(2);
    await send(
      new Undo({
        id: new URL(`${t.remote.origin}/likes/bob-1/undo`),
        actor: t.remote.bob,
        object: like("bob", 1),
      }),
    );
    await expect.poll(hearts, POLL).toBe(1);
    // bob likes it again: his heart is back.
    await send(like("bob", 3));
    await expect.poll(hearts, POLL).toBe(2);
  });
});
