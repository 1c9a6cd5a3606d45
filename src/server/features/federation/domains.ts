// Other servers by their domain: what an admin decided of one (Catalyst's Federation tab), which
// the inbox and the sender follow, and the deliveries to one that failed. A decision on a domain
// covers its subdomains (`example.social` covers `eu.example.social`), as Mastodon's do.
import { sql } from "drizzle-orm";
import type { DomainPolicy } from "../../../contract/catalyst.ts";
import { type Executor, rowsOf } from "../../db/client.ts";
import { federationDomains } from "../../db/schema.ts";

/** The host of an address, lowercase and without its port; null when it names none. */
export function domainOf(address: string | URL): string | null {
  try {
    const host = (typeof address === "string" ? new URL(address) : address).hostname;
    return host === "" ? null : host.toLowerCase().replace(/\.$/, "");
  } catch {
    return null;
  }
}

/** The domain `host` is and every domain above it: `a.b.c` → `a.b.c`, `b.c`, `c`. */
const domainsAbove = (host: string) =>
  host.split(".").map((_, i, labels) => labels.slice(i).join("."));

const strictness: Record<DomainPolicy, number> = { open: 0, limited: 1, blocked: 2 };

/** How Prism treats these hosts together: the strictest decision on any of them or above them. */
export async function policyOfHosts(db: Executor, hosts: string[]): Promise<DomainPolicy> {
  const domains = [...new Set(hosts.flatMap(domainsAbove))];
  if (domains.length === 0) return "open";
  const rows = rowsOf<{ policy: DomainPolicy }>(
    await db.execute(sql`
      select ${federationDomains.policy} as policy from ${federationDomains}
      where ${federationDomains.domain} in (${sql.join(
        domains.map((domain) => sql`${domain}`),
        sql`, `,
      )}) and ${federationDomains.policy} <> 'open'`),
  );
  return rows.reduce<DomainPolicy>(
    (strictest, { policy }) => (strictness[policy] > strictness[strictest] ? policy : strictest),
    "open",
  );
}

/** The domains an admin blocked: nothing is delivered to them or below them. */
export async function blockedDomains(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ domain: federationDomains.domain })
    .from(federationDomains)
    .where(sql`${federationDomains.policy} = 'blocked'`);
  return rows.map((row) => row.domain);
}

/** Whether a follower (their actor, their inbox or their server's shared one) is on one of these. */
export const followerOnDomains = (
  follower: { actorId: string; inbox: string; sharedInbox: string | null },
  domains: string[],
) =>
  [follower.actorId, follower.inbox, follower.sharedInbox].some(
    (address) => address !== null && onDomains(address, domains),
  );

/** Whether the address is on one of these domains or below one. */
export function onDomains(address: string, domains: string[]): boolean {
  const host = domainOf(address);
  return host !== null && domainsAbove(host).some((domain) => domains.includes(domain));
}

/** Counts one failed delivery to the domain, with its reason (kept to 500 characters). */
export async function noteDeliveryFailure(db: Executor, domain: string, reason: string) {
  const lastFailure = reason.slice(0, 500);
  await db
    .insert(federationDomains)
    .values({ domain, deliveryFailures: 1, lastFailureAt: new Date(), lastFailure })
    .onConflictDoUpdate({
      target: federationDomains.domain,
      set: {
        deliveryFailures: sql`${federationDomains.deliveryFailures} + 1`,
        lastFailureAt: new Date(),
        lastFailure,
      },
    });
}
