// Prism's federation for one app: made with the app, its deliveries started when the app is
// ready and stopped when it closes; what the followers routes are given to tell a follower that
// their follow was accepted or removed.
import type { FastifyInstance } from "fastify";
import type { NetworkWrite } from "../../commands/federation.ts";
import type { AppDeps } from "../../deps.ts";
import { Bounded } from "./bounded.ts";
import { createPrismFederation, type FederationSettings, refusedAddresses } from "./federation.ts";
import { INBOX_BUDGET, type InboxLimits, inboxLimits } from "./inbox-guard.ts";
import type { PrismFederation } from "./objects.ts";
import { acceptance, rejection, sendToFollower, startSender } from "./sender.ts";
import type { FollowerRow } from "./service.ts";

/** Prism's version, as NodeInfo and the User-Agent of its requests name it (package.json's). */
const PRISM_VERSION = "0.1.0";

/** How many activities posted to the inboxes are read, verified and queued at once. */
export const INBOX_AT_ONCE = 2;

export interface Fediverse {
  federation: PrismFederation;
  origin: string;
  /** What each domain's activities spend from. */
  inboxLimits: InboxLimits;
  /** The activities posted to the inboxes, taken `INBOX_AT_ONCE` at a time. */
  inboxTurns: Bounded;
  /** Tells a follower their follow of `userId`'s actor is no more (`Reject` of it). */
  rejectFollow: (userId: number, follower: FollowerRow) => Promise<void>;
  /** Tells a follower whose follow waited that `userId` accepted it (`Accept` of it). */
  acceptFollow: (userId: number, follower: FollowerRow) => Promise<void>;
}

export function startFederation(
  app: FastifyInstance,
  deps: AppDeps,
  settings: FederationSettings = {},
): Fediverse {
  const origin = deps.config.appOrigin;
  const write: NetworkWrite = { db: deps.db, bus: deps.bus, actor: null };
  const federation = createPrismFederation(write, origin, PRISM_VERSION, settings);
  const refuses = refusedAddresses(settings);
  const sender = startSender(federation, write, origin, app.log, refuses);
  const stopping = new AbortController();
  app.addHook("onReady", async () => {
    federation
      .startQueue(undefined, { signal: stopping.signal })
      .catch((error: unknown) => app.log.error({ err: error }, "federation: the queue stopped"));
  });
  app.addHook("onClose", async () => {
    sender.stop();
    stopping.abort();
    await sender.idle();
  });
  const ctx = federation.createContext(new URL(origin), undefined);
  return {
    federation,
    origin,
    inboxLimits: inboxLimits(deps.limitStore, settings.inboxBudget ?? INBOX_BUDGET),
    inboxTurns: new Bounded(INBOX_AT_ONCE),
    rejectFollow: (userId, follower) =>
      sendToFollower(ctx, deps.db, refuses, { userId, follower }, rejection),
    acceptFollow: (userId, follower) =>
      sendToFollower(ctx, deps.db, refuses, { userId, follower }, acceptance),
  };
}
