// E-mail notifications the mail server refuses are tried again, a few times, and stay unmailed
// until a later run sends them once; and a message tells of at most so many notifications in so
// many bytes however many wait, summing up the rest in one line.
import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { limits } from "../../src/contract/limits.ts";
import { notifications } from "../../src/server/db/schema.ts";
import { DIGEST_BYTES_MAX } from "../../src/server/features/email/messages.ts";
import { DIGEST_ITEMS_MAX } from "../../src/server/features/email/service.ts";
import { MAIL_RETRY_WAITS_MS } from "../../src/server/mail/mailer.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { asSent, send } from "../../src/server/test/helpers.ts";
import { plainTextOf, setupMailTestApp } from "../../src/server/test/mail.ts";

const DAY = 24 * 60 * 60 * 1000;
let clock = new Date("2031-05-01T08:00:00Z");
const t = setupMailTestApp({}, () => clock);

const mailsTo = (address: string) => t.received.filter((mail) => mail.to.includes(address));

/**
 * A member with `count` responses waiting to be mailed; `word` (one character) fills the prism's
 * title, the responders' names, the passages and the responses to their bounds.
 */
async function waiting(setting: "daily" | "immediately", count = 1, word?: string) {
  const owner = await buildUser(t.database, { emailNotifications: setting });
  const prism = await buildPrism(t.database, {
    userId: owner.id,
    title: word ? word.repeat(limits.prismTitleMax) : "How I work",
  });
  const annotation = await buildAnnotation(t.database, {
    prismId: prism.id,
    ...(word && {
      selectedText: word.repeat(limits.selectionMax),
      annotationText: word.repeat(limits.annotationMax),
    }),
  });
  const name = word ? word.repeat(limits.nameMax) : "Reader";
  await t.database.db.execute(sql`
    insert into notifications (user_id, prism_id, type, annotation_id, actor_name)
    select ${owner.id}, ${prism.id}, 'annotation', ${annotation.id}, ${name}
    from generate_series(1, ${count}) as n`);
  return owner;
}

const unmailed = async (userId: number) =>
  (
    await t.database.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.mailedAt)))
  ).length;

async function run() {
  await t.app.emailNotifier.runDigest();
  await t.app.emailNotifier.idle();
}

describe("a message the mail server refuses", () => {
  it("is tried again, stays unmailed, and goes out once a later run is accepted", async () => {
    const owners = [await waiting("daily"), await waiting("daily")];
    t.refusing = 451;
    const before = t.refused;
    await run();
    // The first digest is tried three times; the second waits for a server that accepts.
    expect(t.refused - before).toBe(MAIL_RETRY_WAITS_MS.length + 1);
    for (const owner of owners) {
      expect(mailsTo(owner.email)).toHaveLength(0);
      expect(await unmailed(owner.id)).toBe(1);
    }

    t.refusing = null;
    await run();
    await run();
    clock = new Date(clock.getTime() + DAY);
    await run();
    for (const owner of owners) {
      expect(mailsTo(owner.email)).toHaveLength(1);
      expect(await unmailed(owner.id)).toBe(0);
    }
  });

  it("of a member who wants e-mails at once is sent by the next run", async () => {
    const owner = await buildUser(t.database, { emailNotifications: "immediately" });
    const prism = await buildPrism(t.database, { userId: owner.id, title: "How I work" });
    t.refusing = 451;
    const response = await send(t.app, "POST", "/api/annotations", {
      remoteAddress: "10.33.4.1",
      payload: await asSent(
        t.app,
        {},
        {
          prismId: prism.id,
          annotationText: "Mornings suit me too.",
          annotatorName: "Maya Okafor",
          selectedText: "Mornings",
          selectionStart: 0,
          selectionEnd: 8,
        },
        "10.33.4.1",
      ),
    });
    expect(response.statusCode).toBe(201);
    await t.app.emailNotifier.idle();
    expect(mailsTo(owner.email)).toHaveLength(0);
    expect(await unmailed(owner.id)).toBe(1);

    t.refusing = null;
    await run();
    await run();
    expect(mailsTo(owner.email)).toHaveLength(1);
    expect(await unmailed(owner.id)).toBe(0);
  });
});

describe("a digest of many notifications", () => {
  it(`of 5,000 is one message of ${DIGEST_ITEMS_MAX}, and one line for the rest`, async () => {
    const owner = await waiting("daily", 5000);
    clock = new Date(clock.getTime() + DAY);
    await run();
    const [mail, ...others] = mailsTo(owner.email);
    expect(others).toHaveLength(0);
    const text = plainTextOf(mail?.raw ?? "");
    expect(text.match(/^\* /gm)).toHaveLength(DIGEST_ITEMS_MAX);
    expect(text).toContain(`And ${(5000 - DIGEST_ITEMS_MAX).toLocaleString("en")} more: http`);
    expect(Buffer.byteLength(mail?.raw ?? "")).toBeLessThan(3 * DIGEST_BYTES_MAX);
    expect(await unmailed(owner.id)).toBe(0);
  });

  it(`holds at most ${DIGEST_BYTES_MAX / 1024} KB of text, whatever the notifications say`, async () => {
    // Three bytes a character, every field full: the bytes run out before the count does.
    const owner = await waiting("daily", 60, "語");
    clock = new Date(clock.getTime() + DAY);
    await run();
    const [mail] = mailsTo(owner.email);
    const text = plainTextOf(mail?.raw ?? "");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(DIGEST_BYTES_MAX);
    const shown = text.match(/^\* /gm)?.length ?? 0;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(DIGEST_ITEMS_MAX);
    expect(text).toContain(`And ${60 - shown} more: http`);
    expect(await unmailed(owner.id)).toBe(0);
  });
});
