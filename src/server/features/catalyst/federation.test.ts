// Catalyst's Federation tab through the API: the delivery queue's depth and the deliveries
// waiting for another try, each domain's waiting deliveries and failures; an admin limits or
// blocks a domain (blocking drops what waits for it), audited.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordDeliveryFailure } from "../../commands/domains.ts";
import { auditLog, federationQueue } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { send, setupTestApp, signIn } from "../../test/helpers.ts";
import { writeAs } from "../../test/write.ts";

const t = setupTestApp();

/** Later than any test runs: the app's own queue listener leaves such messages be. */
const later = () => new Date(Date.now() + 3_600_000);

/** A delivery as Fedify queues it: to `inbox`, on its `attempt`th try (0 the first). */
const delivery = (inbox: string, attempt: number) => ({
  message: { type: "outbox", id: crypto.randomUUID(), inbox, attempt, activityType: "Create" },
  availableAt: later(),
});

describe("the Federation tab", () => {
  it("shows the queue's depth, retries and failures, and each domain's", async () => {
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    await t.database.db.insert(federationQueue).values([
      delivery("https://slow.example/inbox", 3),
      delivery("https://slow.example/users/kim/inbox", 0),
      delivery("https://fine.example/inbox", 0),
      {
        message: { type: "inbox", id: crypto.randomUUID() },
        availableAt: new Date(Date.now() + 60_000),
      },
    ]);
    const network = writeAs(t.database, null);
    await recordDeliveryFailure(network, "slow.example", "Answered 503");
    await recordDeliveryFailure(network, "slow.example", "Not reached: fetch failed");

    const answer = await send(t.app, "GET", "/api/analytics/federation", { headers: admin });
    expect(answer.statusCode).toBe(200);
    const { queue, domains } = answer.json();
    expect(queue).toEqual({ depth: 4, ready: 0, delayed: 4, retrying: 1, failures: 2 });
    expect(domains).toEqual([
      {
        domain: "slow.example",
        policy: "open",
        queued: 2,
        retrying: 1,
        failures: 2,
        lastFailureAt: expect.any(String),
        lastFailure: "Not reached: fetch failed",
      },
      {
        domain: "fine.example",
        policy: "open",
        queued: 1,
        retrying: 0,
        failures: 0,
        lastFailureAt: null,
        lastFailure: null,
      },
    ]);
  });

  it("limits and blocks a domain, dropping what waits for it and below it, audited", async () => {
    const adminUser = await buildUser(t.database, { isAdmin: true });
    const admin = await signIn(t.database, adminUser);
    await t.database.db.delete(federationQueue);
    await t.database.db
      .insert(federationQueue)
      .values([
        delivery("https://spam.example/inbox", 0),
        delivery("https://eu.spam.example/inbox", 1),
        delivery("https://kept.example/inbox", 0),
      ]);
    const put = (domain: string, policy: string) =>
      send(t.app, "PUT", `/api/analytics/federation/domains/${domain}`, {
        headers: admin,
        payload: { policy },
      });

    expect((await put("spam.example", "limited")).json()).toEqual({
      domain: "spam.example",
      policy: "limited",
    });
    expect(await t.database.db.select().from(federationQueue)).toHaveLength(3);
    expect((await put("SPAM.example", "blocked")).json()).toEqual({
      domain: "spam.example",
      policy: "blocked",
    });
    const left = await t.database.db.select().from(federationQueue);
    expect(left.map((row) => (row.message as { inbox: string }).inbox)).toEqual([
      "https://kept.example/inbox",
    ]);

    const tab = (await send(t.app, "GET", "/api/analytics/federation", { headers: admin })).json();
    expect(tab.domains).toContainEqual(
      expect.objectContaining({ domain: "spam.example", policy: "blocked", queued: 0 }),
    );
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.actorId, adminUser.id));
    expect(audited.map((row) => [row.action, row.targetType, row.details])).toEqual([
      [
        "domain.policy",
        "domain",
        { target: "spam.example", before: { policy: "open" }, after: { policy: "limited" } },
      ],
      [
        "domain.policy",
        "domain",
        { target: "spam.example", before: { policy: "limited" }, after: { policy: "blocked" } },
      ],
    ]);
  });

  it("refuses what is not a domain, and a policy it does not know", async () => {
    const admin = await signIn(t.database, await buildUser(t.database, { isAdmin: true }));
    for (const [domain, policy] of [
      ["not a domain", "blocked"],
      ["example.social:8080", "blocked"],
      ["example.social", "nuked"],
    ]) {
      const answer = await send(
        t.app,
        "PUT",
        `/api/analytics/federation/domains/${encodeURIComponent(domain ?? "")}`,
        { headers: admin, payload: { policy } },
      );
      expect(answer.statusCode, `${domain} ${policy}`).toBe(400);
    }
  });
});
