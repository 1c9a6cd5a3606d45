// E-mail notifications against a real SMTP server: the setting, what is mailed and when
// (immediately, in a daily digest, never), the message's parts and one-click unsubscribe headers,
// unsubscribing without a session, and a restart that mails nothing twice.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailMessages } from "../../../contract/email.ts";
import { buildApp } from "../../app.ts";
import { notifications, prisms, users } from "../../db/schema.ts";
import {
  buildAnnotation,
  buildPrism,
  buildTeam,
  buildTeamMember,
  buildUser,
} from "../../test/builders.ts";
import { asSent, profileBody, send, signIn, TEST_ORIGIN } from "../../test/helpers.ts";
import { decodedMail, setupMailTestApp } from "../../test/mail.ts";
import { unsubscribeToken } from "./service.ts";

const SECRET = "a-secret-for-the-e-mail-notification-tests";
const DAY = 24 * 60 * 60 * 1000;
let clock = new Date("2030-03-01T08:00:00Z");
const t = setupMailTestApp({ APP_SECRET: SECRET }, () => clock);

/** The messages one address received so far, decoded. */
const mailsTo = (address: string) =>
  t.received.filter((mail) => mail.to.includes(address)).map((mail) => decodedMail(mail.raw));

async function member(emailNotifications: "immediately" | "daily" | "never" = "daily") {
  const user = await buildUser(t.database, { emailNotifications });
  return { user, headers: await signIn(t.database, user) };
}

let callers = 0;
/** A visitor responds to the owner's prism ("Mornings are for deep work."), from an address of its own. */
async function respond(prismId: number, annotationText = "Mornings suit me too.") {
  callers += 1;
  const remoteAddress = `10.9.${(callers >> 8) & 255}.${callers & 255}`;
  const response = await send(t.app, "POST", "/api/annotations", {
    remoteAddress,
    payload: await asSent(
      t.app,
      {},
      {
        prismId,
        annotationText,
        annotatorName: "Maya Okafor",
        selectedText: "Mornings",
        selectionStart: 0,
        selectionEnd: 8,
      },
      remoteAddress,
    ),
  });
  expect(response.statusCode).toBe(201);
  await t.app.emailNotifier.idle();
  return response.json() as { id: number };
}

async function ownerWithPrism(setting: "immediately" | "daily" | "never") {
  const owner = await member(setting);
  const prism = await buildPrism(t.database, { userId: owner.user.id, title: "How I work" });
  return { ...owner, prism };
}

const unsubscribeUrl = (token: string) =>
  `/api/email/unsubscribe?token=${encodeURIComponent(token)}`;

/** A one-click unsubscribe as a mail client sends it: no session, no Origin, a form body. */
const oneClick = (url: string) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: "List-Unsubscribe=One-Click",
  });

async function settingOf(userId: number) {
  const [row] = await t.database.db
    .select({ setting: users.emailNotifications })
    .from(users)
    .where(eq(users.id, userId));
  return row?.setting;
}

describe("the e-mail setting in Profile Settings", () => {
  it("is daily by default and saved with the profile", async () => {
    const { user, headers } = await member();
    const me = await send(t.app, "GET", "/api/user", { headers });
    expect(me.json()).toMatchObject({ emailNotifications: "daily" });
    const profile = profileBody(user);
    const saved = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: { ...profile, emailNotifications: "immediately" },
    });
    expect(saved.json()).toMatchObject({ emailNotifications: "immediately" });
    const unchanged = await send(t.app, "PUT", "/api/user/profile", { headers, payload: profile });
    expect(unchanged.json()).toMatchObject({ emailNotifications: "immediately" });
    const wrong = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: { ...profile, emailNotifications: "hourly" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(await settingOf(user.id)).toBe("immediately");
  });
});

describe("immediately", () => {
  it("mails the owner a new response at once, as text and HTML with one-click unsubscribe headers", async () => {
    const { user, prism } = await ownerWithPrism("immediately");
    const { id } = await respond(prism.id, "Mornings suit me <too>.");
    const [mail, ...more] = mailsTo(user.email);
    expect(more).toEqual([]);
    expect(mail).toContain('Subject: Maya Okafor (visitor) responded to your Prism "How I work"');
    const token = unsubscribeToken(SECRET, user.id);
    expect(mail).toContain(
      `List-Unsubscribe: <${TEST_ORIGIN}/api/email/unsubscribe?token=${token}>`,
    );
    expect(mail).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(mail).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail).toMatch(/Content-Type: text\/plain/);
    expect(mail).toMatch(/Content-Type: text\/html/);
    // The text quotes the response as written; the HTML escapes it.
    expect(mail).toContain('"Mornings suit me <too>."');
    expect(mail).toContain("<blockquote>Mornings suit me &lt;too&gt;.</blockquote>");
    // It links to the response itself, where the owner decides on it, as Prism's button.
    const response = `${TEST_ORIGIN}/${user.username}?annotation=${id}`;
    expect(mail).toContain(`  ${response}\r\n`);
    expect(mail).toMatch(
      new RegExp(
        `<a href="${response.replace(/[?]/g, "\\?")}" style="[^"]+">Review the response</a>`,
      ),
    );
    expect(mail).toContain(`${TEST_ORIGIN}/unsubscribe?token=${token}`);
    const [row] = await t.database.db
      .select({ mailedAt: notifications.mailedAt })
      .from(notifications)
      .where(eq(notifications.userId, user.id));
    expect(row?.mailedAt).toBeInstanceOf(Date);
    // The digest finds nothing more to send.
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(user.email)).toHaveLength(1);
  });

  it("mails a member author the owner's reply to their response, and not its approval", async () => {
    const owner = await member("never");
    const author = await member("immediately");
    const prism = await buildPrism(t.database, { userId: owner.user.id, title: "Craft" });
    const annotation = await buildAnnotation(t.database, {
      prismId: prism.id,
      userId: author.user.id,
    });
    const approve = await send(t.app, "PUT", `/api/annotations/${annotation.id}/status`, {
      headers: owner.headers,
      payload: { status: "approved" },
    });
    expect(approve.statusCode).toBe(200);
    const reply = await send(t.app, "PUT", `/api/annotations/${annotation.id}/reply`, {
      headers: owner.headers,
      payload: { text: "Thank you for reading so closely." },
    });
    expect(reply.statusCode).toBe(200);
    await t.app.emailNotifier.idle();
    const mails = mailsTo(author.user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("replied to your response to");
    expect(mails[0]).toContain('"Thank you for reading so closely."');
    expect(mailsTo(owner.user.email)).toEqual([]);
  });

  it("mails nothing about a prism its reader may no longer see: a teammate's, made a draft", async () => {
    const owner = await member("never");
    const author = await member("immediately");
    const team = await buildTeam(t.database);
    for (const { user } of [owner, author]) {
      await buildTeamMember(t.database, { teamId: team.id, userId: user.id });
    }
    const prism = await buildPrism(t.database, {
      userId: owner.user.id,
      title: "Team craft",
      audience: "private",
    });
    const annotation = await buildAnnotation(t.database, {
      prismId: prism.id,
      userId: author.user.id,
      status: "approved",
    });
    const reply = await send(t.app, "PUT", `/api/annotations/${annotation.id}/reply`, {
      headers: owner.headers,
      payload: { text: "Only for the team, once." },
    });
    expect(reply.statusCode).toBe(200);
    await t.app.emailNotifier.idle();
    expect(mailsTo(author.user.email)).toEqual([]);
    // Shared with the team, the reply that waited is mailed with the next one that is sent.
    await t.database.db.update(prisms).set({ audience: "team" }).where(eq(prisms.id, prism.id));
    await t.app.emailNotifier.runDigest();
    const again = await send(t.app, "PUT", `/api/annotations/${annotation.id}/reply`, {
      headers: owner.headers,
      payload: { text: "Now for the team." },
    });
    expect(again.statusCode).toBe(200);
    await t.app.emailNotifier.idle();
    expect(mailsTo(author.user.email)).toHaveLength(1);
  });
});

describe("daily digest", () => {
  it("sends one message a day with everything not yet mailed, and never the same notification twice", async () => {
    const { user, prism } = await ownerWithPrism("daily");
    await respond(prism.id, "First response.");
    await respond(prism.id, "Second response.");
    expect(mailsTo(user.email)).toEqual([]);
    expect(await t.app.emailNotifier.runDigest()).toBeGreaterThanOrEqual(1);
    const [digest, ...more] = mailsTo(user.email);
    expect(more).toEqual([]);
    expect(digest).toContain("Subject: Your Prism digest: 2 new notifications");
    expect(digest).toContain("First response.");
    expect(digest).toContain("Second response.");
    expect(digest).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    // Within the day a new response waits for the next digest.
    await respond(prism.id, "Third response.");
    clock = new Date(clock.getTime() + DAY / 2);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(user.email)).toHaveLength(1);
    clock = new Date(clock.getTime() + DAY / 2);
    await t.app.emailNotifier.runDigest();
    const mails = mailsTo(user.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]).toContain(
      'Subject: Maya Okafor (visitor) responded to your Prism "How I work"',
    );
    expect(mails[1]).toContain("Third response.");
    expect(mails[1]).not.toContain("First response.");
  });

  it("leaves out what the member already read or decided on", async () => {
    const { user, headers, prism } = await ownerWithPrism("daily");
    const { id } = await respond(prism.id, "Decided before the digest.");
    const decided = await send(t.app, "PUT", `/api/annotations/${id}/status`, {
      headers,
      payload: { status: "approved" },
    });
    expect(decided.statusCode).toBe(200);
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(user.email)).toEqual([]);
  });

  it("leaves out a member's response that was approved at once (members pre-approved)", async () => {
    const owner = await buildUser(t.database, { preapproveMembers: true });
    const prism = await buildPrism(t.database, { userId: owner.id });
    const reader = await member("never");
    const response = await send(t.app, "POST", "/api/annotations", {
      headers: reader.headers,
      remoteAddress: "10.9.250.1",
      payload: {
        prismId: prism.id,
        annotationText: "Approved at once.",
        selectedText: "Mornings",
        selectionStart: 0,
        selectionEnd: 8,
      },
    });
    expect(response.json()).toMatchObject({ status: "approved" });
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(owner.email)).toEqual([]);
  });

  it("mails nothing twice after a restart: a new app on the same database sends only what is new", async () => {
    const { user, prism } = await ownerWithPrism("daily");
    await respond(prism.id, "Before the restart.");
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(user.email)).toHaveLength(1);
    await t.app.close();
    t.app = await buildApp({ config: t.config, database: t.database, now: () => clock });
    await t.app.emailNotifier.idle();
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(user.email)).toHaveLength(1);
    await respond(prism.id, "After the restart.");
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    const mails = mailsTo(user.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]).toContain("After the restart.");
    expect(mails[1]).not.toContain("Before the restart.");
  });
});

describe("never", () => {
  it("mails nothing, and turning e-mail back on does not mail what came meanwhile", async () => {
    const { user, headers, prism } = await ownerWithPrism("never");
    await respond(prism.id, "While e-mail was off.");
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(user.email)).toEqual([]);
    const on = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: profileBody(user, { emailNotifications: "daily" }),
    });
    expect(on.statusCode).toBe(200);
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(user.email)).toEqual([]);
  });
});

describe("POST /api/email/unsubscribe", () => {
  it("turns e-mail off in one click from a mail client, without a session", async () => {
    const { user, prism } = await ownerWithPrism("immediately");
    const answer = await oneClick(unsubscribeUrl(unsubscribeToken(SECRET, user.id)));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: emailMessages.unsubscribed });
    expect(await settingOf(user.id)).toBe("never");
    await respond(prism.id, "After unsubscribing.");
    expect(mailsTo(user.email)).toEqual([]);
    // Again is still fine: the link keeps working.
    expect((await oneClick(unsubscribeUrl(unsubscribeToken(SECRET, user.id)))).statusCode).toBe(
      200,
    );
  });

  it("answers 404 to a token that is not one of ours, and changes no one", async () => {
    const { user } = await member("daily");
    const token = unsubscribeToken(SECRET, user.id);
    const forged = [
      unsubscribeToken("another secret", user.id),
      `${user.id + 1}.${token.split(".")[1]}`,
      `${user.id}.`,
      "nonsense",
      "",
    ];
    for (const candidate of forged) {
      const answer = await oneClick(unsubscribeUrl(candidate));
      expect(answer.statusCode, candidate).toBe(404);
      expect(answer.json()).toEqual({ message: emailMessages.unknownToken });
    }
    expect(await settingOf(user.id)).toBe("daily");
  });

  it("is limited per address", async () => {
    const limited = Array.from({ length: 31 }, () =>
      t.app.inject({
        method: "POST",
        url: unsubscribeUrl("nonsense"),
        remoteAddress: "10.200.0.1",
      }),
    );
    const answers = await Promise.all(limited);
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 404)).toHaveLength(30);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(1);
    expect(Number(refused[0]?.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused[0]?.json()).toEqual({ message: emailMessages.tooMany });
  });
});
