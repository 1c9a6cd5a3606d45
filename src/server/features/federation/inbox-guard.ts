// Before an inbox reads an activity: a server whose domain an admin blocked is refused (403),
// and each domain spends from a budget of activities (a limited domain from a smaller one), past
// which it is answered 429 with Retry-After. The domain is the one that signed the request (its
// key's host) or that the activity's actor is on; an activity Fedify does not take (its
// signature fails, 401) gives its point back, so that nobody spends another server's budget by
// naming its key.
import type { IncomingHttpHeaders } from "node:http";
import type { Executor } from "../../db/client.ts";
import { HttpError } from "../../http-error.ts";
import { Limit, RateLimited } from "../../plugins/rate-limit.ts";
import type { LimitStore } from "../../plugins/rate-limit-store.ts";
import { domainOf, policyOfHosts } from "./domains.ts";

/** Activities one domain may send every 10 minutes: open, and limited by an admin. */
export interface InboxBudget {
  open: number;
  limited: number;
}

export const INBOX_BUDGET: InboxBudget = { open: 600, limited: 60 };

export const inboxMessages = {
  blocked: "This server does not take activities from your domain",
  limited: "Too many activities from your domain; try again later",
} as const;

export interface InboxLimits {
  open: Limit;
  limited: Limit;
}

/** The inbox's two budgets per domain, counted in the app's limit store. */
export function inboxLimits(store: LimitStore, budget: InboxBudget): InboxLimits {
  return {
    open: new Limit(store, "inbox-domain", budget.open, 10),
    limited: new Limit(store, "inbox-domain-limited", budget.limited, 10),
  };
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};

/** The host of the key that signed the request: draft-cavage's `keyId`, RFC 9421's `keyid`. */
export function signerDomain(headers: IncomingHttpHeaders): string | null {
  const cavage = /keyId="([^"]+)"/i.exec(header(headers, "signature"));
  const rfc9421 = /;\s*keyid="([^"]+)"/i.exec(header(headers, "signature-input"));
  const keyId = cavage?.[1] ?? rfc9421?.[1];
  return keyId ? domainOf(keyId) : null;
}

/** The host of the actor an activity's body names, when it is JSON naming one. */
function actorDomain(body: unknown): string | null {
  if (!Buffer.isBuffer(body)) return null;
  try {
    const activity = JSON.parse(body.toString("utf8")) as { actor?: unknown };
    const { actor } = activity;
    const id = typeof actor === "object" && actor !== null ? (actor as { id?: unknown }).id : actor;
    return typeof id === "string" ? domainOf(id) : null;
  } catch {
    return null;
  }
}

/**
 * Lets an inbox request through to `answer` when its domain may send it now: 403 for a blocked
 * domain, 429 past its budget; a request Fedify answers with an error gives its point back.
 */
export async function admitActivity(
  db: Executor,
  limits: InboxLimits,
  request: { headers: IncomingHttpHeaders; body: unknown },
  answer: () => Promise<Response>,
): Promise<Response> {
  const signer = signerDomain(request.headers);
  const hosts = [signer, actorDomain(request.body)].filter((host) => host !== null);
  const policy = await policyOfHosts(db, hosts);
  if (policy === "blocked") throw new HttpError(403, inboxMessages.blocked);
  if (signer === null) return answer();
  const limit = policy === "limited" ? limits.limited : limits.open;
  const wait = await limit.spendFrom(signer);
  if (wait > 0) throw new RateLimited(inboxMessages.limited, wait);
  const response = await answer();
  if (!response.ok) await limit.refundFrom(signer);
  return response;
}
