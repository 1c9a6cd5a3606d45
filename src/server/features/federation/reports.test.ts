// Reports from other servers, over HTTP with another Fedify server: a signed `Flag` naming a
// member, their prism or a response on it is kept for Catalyst with who sent it and their
// comment; one naming nothing here, or unsigned, is not; an admin dismisses it, audited.
import { Flag } from "@fedify/fedify/vocab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry, CatalystReport } from "../../../contract/catalyst.ts";
import type { App } from "../../app.ts";
import { federationReports, type PrismRow, type UserRow } from "../../db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../test/builders.ts";
import { type RemoteServer, servePrism, startRemoteServer } from "../../test/fediverse.ts";
import { setupTestDatabase, signIn } from "../../test/helpers.ts";

const t = setupTestDatabase();
let prism: { app: App; origin: string };
let remote: RemoteServer;
let ada: UserRow;
let adaPrism: PrismRow;
let admin: Record<string, string>;

beforeAll(async () => {
  prism = await servePrism(t.database);
  remote = await startRemoteServer();
  ada = await buildUser(t.database, { username: "ada-reported", federated: true });
  adaPrism = await buildPrism(t.database, { userId: ada.id, title: "Reported words" });
  const root = await buildUser(t.database, { username: "root-reports", isAdmin: true });
  admin = { ...(await signIn(t.database, root)), origin: prism.origin };
});
afterAll(async () => {
  await prism?.app.close();
  await remote?.close();
});

const inboxOfAda = () => new URL(`${prism.origin}/ap/actors/${ada.id}/inbox`);

/** bob's server reports `objects` to Prism's shared inbox, signed by bob. */
async function bobFlags(n: number, objects: URL[], content: string) {
  const ctx = remote.federation.createContext(new URL(remote.origin), undefined);
  const flag = new Flag({
    id: new URL(`${remote.origin}/flags/${n}`),
    actor: remote.bob,
    objects,
    content,
  });
  const actor = new URL(`${prism.origin}/ap/actors/${ada.id}`);
  await ctx.sendActivity({ identifier: "bob" }, { id: actor, inboxId: inboxOfAda() }, flag);
}

const reports = async (): Promise<CatalystReport[]> =>
  (await prism.app.inject({ method: "GET", url: "/api/analytics/reports", headers: admin })).json()
    .items;

describe("reports from other servers", () => {
  it("keeps a signed Flag of a member and their prism, with who sent it and why", {
    timeout: 30_000,
  }, async () => {
    await bobFlags(
      1,
      [
        new URL(`${prism.origin}/ap/actors/${ada.id}`),
        new URL(`${prism.origin}/ap/prisms/${adaPrism.id}`),
      ],
      "<p>Spam &amp; scams</p>",
    );
    await expect.poll(reports, { timeout: 20_000 }).toMatchObject([
      {
        reporter: remote.bob.href,
        reporterDomain: remote.bob.host,
        member: { id: ada.id, username: "ada-reported" },
        prism: { id: adaPrism.id, title: "Reported words" },
        response: null,
        comment: "Spam & scams",
        dismissedAt: null,
      },
    ]);
  });

  it("keeps a Flag of a response that came from the fediverse, by its note", {
    timeout: 30_000,
  }, async () => {
    const noteId = `${remote.origin}/notes/7`;
    const response = await buildAnnotation(t.database, {
      prismId: adaPrism.id,
      annotationText: "A reply from afar",
      remoteNoteId: noteId,
      remoteActorId: remote.bob.href,
    });
    await bobFlags(2, [new URL(noteId)], "Rude");
    await expect
      .poll(async () => (await reports()).find((report) => report.comment === "Rude"), {
        timeout: 20_000,
      })
      .toMatchObject({
        member: { id: ada.id },
        prism: { id: adaPrism.id },
        response: { id: response.id, text: "A reply from afar" },
      });
  });

  it("keeps nothing of a Flag that names nothing here, nor of an unsigned one", {
    timeout: 30_000,
  }, async () => {
    const before = (await t.database.db.select().from(federationReports)).length;
    await bobFlags(3, [new URL(`${remote.origin}/users/eve`)], "Not yours");
    const unsigned = await fetch(inboxOfAda(), {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${remote.origin}/flags/4`,
        type: "Flag",
        actor: remote.bob.href,
        object: `${prism.origin}/ap/actors/${ada.id}`,
        content: "Unsigned",
      }),
    });
    expect(unsigned.status).toBe(401);
    // A Flag that does name something, sent after, arrives: the one before it was handled.
    await bobFlags(5, [new URL(`${prism.origin}/ap/actors/${ada.id}`)], "After");
    await expect
      .poll(async () => (await reports()).map((report) => report.comment), { timeout: 20_000 })
      .toContain("After");
    const comments = (await t.database.db.select().from(federationReports)).map((r) => r.comment);
    expect(comments).toHaveLength(before + 1);
    expect(comments).not.toContain("Not yours");
    expect(comments).not.toContain("Unsigned");
  });

  it("lets an admin dismiss a report, audited; members may not", async () => {
    const [open] = await reports();
    const member = await buildUser(t.database, { username: "member-reports" });
    const asMember = { ...(await signIn(t.database, member)), origin: prism.origin };
    const url = `/api/analytics/reports/${open?.id}/dismiss`;
    expect((await prism.app.inject({ method: "PUT", url, headers: asMember })).statusCode).toBe(
      403,
    );
    expect((await prism.app.inject({ method: "PUT", url, headers: admin })).statusCode).toBe(204);
    expect((await prism.app.inject({ method: "PUT", url, headers: admin })).statusCode).toBe(404);

    const listed = await reports();
    // Open reports first: the dismissed one goes last.
    expect(listed.at(-1)).toMatchObject({ id: open?.id, dismissedAt: expect.any(String) });
    expect(listed.slice(0, -1).every((report) => report.dismissedAt === null)).toBe(true);
    const audit = await prism.app.inject({
      method: "GET",
      url: "/api/analytics/audit",
      headers: admin,
    });
    const [entry] = audit.json().items as AuditEntry[];
    expect(entry).toMatchObject({
      action: "report.dismiss",
      targetType: "report",
      targetId: open?.id,
      target: `Report from ${remote.bob.host} about @ada-reported`,
    });
  });
});
