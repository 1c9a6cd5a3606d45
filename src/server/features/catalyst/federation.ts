// Catalyst's Federation tab: the delivery queue (how many messages wait, how many of them are
// deliveries waiting for another try) and each other server's domain Prism knows of (an admin's
// decision on it, its deliveries waiting and failed); an admin limits or blocks a domain, audited.
import { sql } from "drizzle-orm";
import type {
  CatalystDomain,
  CatalystFederation,
  DomainPolicy,
} from "../../../contract/catalyst.ts";
import { recordAudit } from "../../audit.ts";
import { type Executor, rowsOf } from "../../db/client.ts";
import { federationDomains, federationQueue, type UserRow } from "../../db/schema.ts";

/** The most domains the tab lists: those with the most failures, then the most waiting. */
const DOMAINS_SHOWN = 500;

/** An outbox message's inbox host, in SQL: what its delivery waits for. */
const inboxHost = sql`lower(substring(${federationQueue.message}->>'inbox' from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/]*@)?([^:/?#]+)'))`;
const isDelivery = sql`${federationQueue.message}->>'type' = 'outbox'`;
const attempt = sql`coalesce((${federationQueue.message}->>'attempt')::int, 0)`;

/** The queue as a whole. */
async function queueTotals(db: Executor) {
  const [totals] = rowsOf<Omit<CatalystFederation["queue"], "failures">>(
    await db.execute(sql`
      select count(*)::int as depth,
        (count(*) filter (where ${federationQueue.availableAt} <= now()))::int as ready,
        (count(*) filter (where ${federationQueue.availableAt} > now()))::int as delayed,
        (count(*) filter (where ${isDelivery} and ${attempt} > 0))::int as retrying
      from ${federationQueue}`),
  );
  return totals ?? { depth: 0, ready: 0, delayed: 0, retrying: 0 };
}

/** The queue, and each domain that has a decision, deliveries waiting or failures. */
export async function loadFederation(db: Executor): Promise<CatalystFederation> {
  const waiting = rowsOf<{ domain: string; queued: number; retrying: number }>(
    await db.execute(sql`
      select ${inboxHost} as domain, count(*)::int as queued,
        (count(*) filter (where ${attempt} > 0))::int as retrying
      from ${federationQueue} where ${isDelivery} group by 1`),
  );
  const known = await db.select().from(federationDomains);
  const byDomain = new Map<string, CatalystDomain>();
  const entry = (domain: string) => {
    const found = byDomain.get(domain);
    if (found) return found;
    const made: CatalystDomain = {
      domain,
      policy: "open",
      queued: 0,
      retrying: 0,
      failures: 0,
      lastFailureAt: null,
      lastFailure: null,
    };
    byDomain.set(domain, made);
    return made;
  };
  for (const row of known) {
    Object.assign(entry(row.domain), {
      policy: row.policy,
      failures: row.deliveryFailures,
      lastFailureAt: row.lastFailureAt?.toISOString() ?? null,
      lastFailure: row.lastFailure,
    });
  }
  for (const row of waiting) {
    if (row.domain)
      Object.assign(entry(row.domain), { queued: row.queued, retrying: row.retrying });
  }
  const domains = [...byDomain.values()].sort(
    (a, b) => b.failures - a.failures || b.queued - a.queued || a.domain.localeCompare(b.domain),
  );
  const failures = known.reduce((sum, row) => sum + row.deliveryFailures, 0);
  return {
    queue: { ...(await queueTotals(db)), failures },
    domains: domains.slice(0, DOMAINS_SHOWN),
  };
}

/**
 * An admin's decision on a domain, audited with what it was before. Blocking it also drops the
 * deliveries to it (and below it) still waiting, so that nothing more reaches it.
 */
export async function writeDomainPolicy(
  tx: Executor,
  actor: UserRow,
  domain: string,
  policy: DomainPolicy,
): Promise<{ domain: string; policy: DomainPolicy }> {
  const [before] = await tx
    .select({ policy: federationDomains.policy })
    .from(federationDomains)
    .where(sql`${federationDomains.domain} = ${domain}`)
    .for("update");
  const [row] = await tx
    .insert(federationDomains)
    .values({ domain, policy })
    .onConflictDoUpdate({ target: federationDomains.domain, set: { policy } })
    .returning();
  if (!row) throw new Error("a domain's upsert returned no row");
  if (policy === "blocked") {
    await tx.execute(sql`
      delete from ${federationQueue} where ${isDelivery}
      and (${inboxHost} = ${domain} or ${inboxHost} like ${`%.${domain}`})`);
  }
  await recordAudit(tx, actor, {
    action: "domain.policy",
    targetType: "domain",
    targetId: row.id,
    target: domain,
    before: { policy: before?.policy ?? "open" },
    after: { policy },
  });
  return { domain: row.domain, policy: row.policy };
}
