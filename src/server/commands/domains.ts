// Other servers by their domain: an admin limits or blocks one (audited), and a delivery to one
// that failed is counted against it, for Catalyst's Federation tab.
import type { DomainPolicy } from "../../contract/catalyst.ts";
import { writeDomainPolicy } from "../features/catalyst/federation.ts";
import { noteDeliveryFailure } from "../features/federation/domains.ts";
import { commit, type WriteContext } from "./write.ts";

/** An admin's decision on a domain; blocking it drops the deliveries to it still waiting. */
export function setDomainPolicy(write: WriteContext, domain: string, policy: DomainPolicy) {
  return commit(write, (tx) => writeDomainPolicy(tx, write.actor, domain, policy));
}

/** A delivery to the domain failed (a try; Fedify tries again as its back-off says). */
export function recordDeliveryFailure(
  write: WriteContext<null>,
  domain: string,
  reason: string,
): Promise<void> {
  return commit(write, (tx) => noteDeliveryFailure(tx, domain, reason));
}
