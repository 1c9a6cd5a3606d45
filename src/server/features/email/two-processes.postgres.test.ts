// E-mail notifications from two Prism processes on one PostgreSQL (this test's app and another OS
// process): every notification is mailed exactly once, whichever process hears of it or runs the
// digest, and a process that restarts mails nothing again. On PGlite this does not apply: the
// embedded database belongs to one process.
import { describe, expect, it } from "vitest";
import { buildAnnotation, buildNotification, buildPrism, buildUser } from "../../test/builders.ts";
import { testDatabaseUrl, withDatabase } from "../../test/databases.ts";
import { personCheckFrom } from "../../test/helpers.ts";
import { databaseName, spawnInstance } from "../../test/instances.ts";
import { setupMailTestApp } from "../../test/mail.ts";

const postgresUrl = testDatabaseUrl();

describe.runIf(postgresUrl)("e-mail notifications from two processes on PostgreSQL", () => {
  const APP_SECRET = "one-secret-for-both-processes-of-prism-01";
  const t = setupMailTestApp({ APP_SECRET });
  const mailsTo = (address: string) => t.received.filter((mail) => mail.to.includes(address));
  const startOther = async () =>
    spawnInstance(withDatabase(postgresUrl ?? "", await databaseName(t.database)), {
      APP_SECRET,
      SMTP_URL: t.config.smtpUrl ?? "",
    });

  async function ownerWaiting(setting: "immediately" | "daily") {
    const owner = await buildUser(t.database, { emailNotifications: setting });
    const prism = await buildPrism(t.database, { userId: owner.id });
    return { owner, prism };
  }

  it("sends each daily digest once while both processes run it, and again nothing after a restart", {
    timeout: 120_000,
  }, async () => {
    const owners = [];
    for (let i = 0; i < 12; i++) {
      const { owner, prism } = await ownerWaiting("daily");
      const annotation = await buildAnnotation(t.database, { prismId: prism.id });
      await buildNotification(t.database, {
        userId: owner.id,
        prismId: prism.id,
        type: "annotation",
        annotationId: annotation.id,
      });
      owners.push(owner);
    }
    // The other process runs the digest as it starts; this one runs it meanwhile, again and again.
    const starting = startOther();
    let started = false;
    void starting.finally(() => {
      started = true;
    });
    let runs = 0;
    while (!started) {
      await t.app.emailNotifier.runDigest();
      runs++;
    }
    const other = await starting;
    await other.stop();
    await t.app.emailNotifier.idle();
    expect(runs).toBeGreaterThan(0);
    for (const owner of owners) expect(mailsTo(owner.email)).toHaveLength(1);
    // A restart of the other process runs the digest again: nothing is due, nothing is sent.
    const again = await startOther();
    await again.stop();
    await t.app.emailNotifier.runDigest();
    for (const owner of owners) expect(mailsTo(owner.email)).toHaveLength(1);
  });

  it("mails each new response once to an owner on immediately, though both processes hear of it", {
    timeout: 120_000,
  }, async () => {
    const other = await startOther();
    const a = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const owners = [];
    for (let i = 0; i < 6; i++) {
      const { owner, prism } = await ownerWaiting("immediately");
      const response = await fetch(`${i % 2 === 0 ? a : other.origin}/api/annotations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          ...(await personCheckFrom(t.app)),
          prismId: prism.id,
          annotationText: `Response ${i}`,
          selectedText: "Mornings",
          selectionStart: 0,
          selectionEnd: 8,
        }),
      });
      expect(response.status).toBe(201);
      owners.push(owner);
    }
    for (const owner of owners) await t.arrivedAt(owner.email, 1);
    await other.stop();
    await t.app.emailNotifier.idle();
    for (const owner of owners) expect(mailsTo(owner.email)).toHaveLength(1);
    // The digest of either process finds them mailed already.
    await t.app.emailNotifier.runDigest();
    for (const owner of owners) expect(mailsTo(owner.email)).toHaveLength(1);
  });
});
