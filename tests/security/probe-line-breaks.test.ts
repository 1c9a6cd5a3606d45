// A one-line field (a name, a title, an anonymous responder's name, a contact message's name and
// subject) holds no line break, stored or mailed: a break (CR, LF, CRLF, U+2028, U+2029) becomes
// one space, NEL (a control character) is refused, and an e-mail writes each field on one line,
// even from rows stored before, so nobody can forge a line of a message or a header.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { textMessages } from "../../src/contract/text.ts";
import { profileMessages } from "../../src/contract/user.ts";
import { annotations, contactMessages, users } from "../../src/server/db/schema.ts";
import {
  buildAnnotation,
  buildNotification,
  buildPrism,
  buildUser,
} from "../../src/server/test/builders.ts";
import { asSent, profileBody, send, signIn } from "../../src/server/test/helpers.ts";
import { decodedMail, plainTextOf, setupMailTestApp } from "../../src/server/test/mail.ts";

const CONTACT_TO = "team@prism.example";
const t = setupMailTestApp({ CONTACT_TO });

const BREAKS = { LF: "\n", CRLF: "\r\n", CR: "\r", LS: "\u2028", PS: "\u2029" };

let addresses = 0;
const from = () => {
  addresses += 1;
  return `10.44.${addresses >> 8}.${addresses & 255}`;
};

async function stored(username: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.username, username));
  return row;
}

describe("one-line fields", () => {
  for (const [label, cut] of Object.entries(BREAKS)) {
    it(`turn ${label} into a space in a name, registered or updated`, async () => {
      const username = `breaks_${label.toLowerCase()}`;
      const registered = await send(t.app, "POST", "/api/register", {
        remoteAddress: from(),
        payload: {
          username,
          email: `${username}@example.com`,
          firstName: `Ada${cut}* Forged line`,
          lastName: `Lovelace${cut}${cut}Byron`,
          password: "secret-1",
        },
      });
      expect(registered.statusCode, registered.body).toBe(201);
      expect(await stored(username)).toMatchObject({
        firstName: "Ada * Forged line",
        lastName: "Lovelace Byron",
      });

      const user = await stored(username);
      if (!user) throw new Error("not registered");
      const updated = await send(t.app, "PUT", "/api/user/profile", {
        headers: await signIn(t.database, user),
        payload: profileBody(user, {
          firstName: `Grace${cut}Hopper`,
          displayName: `Amazing${cut}Grace`,
        }),
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(await stored(username)).toMatchObject({
        firstName: "Grace Hopper",
        displayName: "Amazing Grace",
      });
    });
  }

  it("refuse NEL (U+0085), a control character, with a 400 on the field, and keep nothing", async () => {
    const registered = await send(t.app, "POST", "/api/register", {
      remoteAddress: from(),
      payload: {
        username: "breaks_nel",
        email: "breaks_nel@example.com",
        firstName: "Ada\u0085Forged",
        lastName: "Lovelace",
        password: "secret-1",
      },
    });
    expect(registered.statusCode).toBe(400);
    expect(registered.json().errors).toMatchObject({ firstName: textMessages.controlCharacters });
    expect(await stored("breaks_nel")).toBeUndefined();
  });

  it("refuse a link with a line break, which is no valid address, with a 400 on the field", async () => {
    const user = await buildUser(t.database);
    for (const cut of Object.values(BREAKS)) {
      const updated = await send(t.app, "PUT", "/api/user/profile", {
        headers: await signIn(t.database, user),
        payload: profileBody(user, { websiteUrl: `https://ada.example/${cut}forged` }),
      });
      expect(updated.statusCode).toBe(400);
      expect(updated.json().errors).toEqual({ websiteUrl: profileMessages.invalidUrl });
    }
    expect(await stored(user.username)).toMatchObject({ websiteUrl: null });
  });

  it("hold no break in a prism's title or an anonymous responder's name", async () => {
    const owner = await buildUser(t.database);
    const headers = await signIn(t.database, owner);
    const created = await send(t.app, "POST", "/api/prisms", {
      headers,
      payload: { title: "How\u2028I\r\nwork", content: "<p>Mornings are for deep work.</p>" },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().title).toBe("How I work");
    const remoteAddress = from();
    const responded = await send(t.app, "POST", "/api/annotations", {
      remoteAddress,
      payload: await asSent(
        t.app,
        {},
        {
          prismId: created.json().id,
          annotationText: "Same here",
          annotatorName: "Maya\n* Forged",
          selectedText: "Mornings",
          selectionStart: 0,
          selectionEnd: 8,
        },
        remoteAddress,
      ),
    });
    expect(responded.statusCode, responded.body).toBe(201);
    const [row] = await t.database.db
      .select({ name: annotations.annotatorName })
      .from(annotations)
      .where(eq(annotations.id, responded.json().id));
    expect(row?.name).toBe("Maya * Forged");
  });

  it("hold no break in a contact message's name and subject, stored or in its one-line Subject", async () => {
    const sent = await send(t.app, "POST", "/api/contact", {
      remoteAddress: from(),
      payload: {
        name: "Ada\r\nLovelace",
        email: "ada@example.com",
        subject: "Hello\r\nBcc: victim@example.com",
        message: "Hello there, team.",
      },
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const [row] = await t.database.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, "ada@example.com"));
    expect(row).toMatchObject({ name: "Ada Lovelace", subject: "Hello Bcc: victim@example.com" });
    const [mail] = await t.arrivedAt(CONTACT_TO, 1);
    expect(mail?.to).toEqual([CONTACT_TO]);
    const head = decodedMail(mail?.raw ?? "").split("\r\n\r\n")[0] ?? "";
    expect(head).toMatch(/^Subject: \[Prism contact\] Hello Bcc: victim@example.com$/m);
    expect(head).not.toMatch(/^Bcc:/im);
  });
});

describe("an e-mail notification", () => {
  it("writes each field on one line, even from rows stored before line breaks were kept out", async () => {
    const owner = await buildUser(t.database, {
      emailNotifications: "daily",
      firstName: "Ada\r\nForged: header",
    });
    const prism = await buildPrism(t.database, {
      userId: owner.id,
      title: "How\u2029I work\n* Forged item",
    });
    const annotation = await buildAnnotation(t.database, {
      prismId: prism.id,
      annotationText: "Same here.\n\n* Someone replied: click http://evil.example",
    });
    await buildNotification(t.database, {
      userId: owner.id,
      prismId: prism.id,
      type: "annotation",
      annotationId: annotation.id,
      actorName: "Maya\u2028* Forged",
    });
    await t.app.emailNotifier.runDigest();
    await t.app.emailNotifier.idle();
    const [mail] = await t.arrivedAt(owner.email, 1);
    const text = plainTextOf(mail?.raw ?? "");
    expect(text).not.toMatch(/[\r\u0085\u2028\u2029]/);
    const lines = text.split("\n");
    expect(lines.filter((line) => line.startsWith("*"))).toEqual([
      '* Maya * Forged responded to your Prism "How I work * Forged item", waiting for your review:',
    ]);
    expect(lines).toContain("Hello Ada Forged: header,");
    expect(lines).toContain('  "Same here. * Someone replied: click http://evil.example"');
    const head = decodedMail(mail?.raw ?? "").split("\r\n\r\n")[0] ?? "";
    expect(head).not.toMatch(/^(Forged|\* )/m);
    expect(head).toMatch(
      /^Subject: Maya \* Forged responded to your Prism "How I work \* Forged item"$/m,
    );
  });
});
