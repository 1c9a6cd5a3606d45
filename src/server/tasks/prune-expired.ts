// Forgetting what can no longer be used: sessions idle past their limit or past their lifetime,
// password-reset tokens that expired or were used, rate-limit counters whose window ended
// (PostgreSQL's; memory's forget themselves), the spent proofs of anonymous responses whose
// challenge expired, and spam older than 30 days. Runs when the app starts and then hourly.
import type { FastifyBaseLogger } from "fastify";
import type { Executor } from "../db/client.ts";
import { deleteOldSpam } from "../features/annotations/service.ts";
import { deleteSpentResetTokens } from "../features/password-reset/service.ts";
import { deleteExpiredProofs } from "../features/person-check/service.ts";
import type { EventBus } from "../live/bus.ts";
import { deleteEndedRateLimits } from "../plugins/rate-limit-store.ts";
import { annotationAudience } from "../policy.ts";
import { deleteExpiredSessions } from "../security/session-store.ts";

const EVERY_MS = 60 * 60 * 1000;

async function pruneExpired(db: Executor, bus: Pick<EventBus, "publish">) {
  return {
    sessions: await deleteExpiredSessions(db),
    resetTokens: await deleteSpentResetTokens(db),
    rateLimits: await deleteEndedRateLimits(db),
    proofs: await deleteExpiredProofs(db),
    spam: await purgeSpam(db, bus),
  };
}

/** Deletes old spam, and tells those who could see it (its authors, admins) that it went. */
async function purgeSpam(db: Executor, bus: Pick<EventBus, "publish">) {
  const purged = await deleteOldSpam(db);
  await bus.publish(
    ...purged.map(({ prismId, ownerId, username, authors }) => ({
      type: "annotation.changed" as const,
      prismId,
      username,
      audience: annotationAudience(
        ownerId,
        authors.map((userId) => ({ statuses: ["spam" as const], userId })),
      ),
    })),
  );
  return purged.length;
}

/** Prunes now and then hourly; a failed run is logged and the next one tries again. */
export function schedulePruning(
  db: Executor,
  bus: Pick<EventBus, "publish">,
  log: FastifyBaseLogger,
) {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = pruneExpired(db, bus).catch((error) => log.warn({ err: error }, "pruning failed"));
  };
  run();
  const timer = setInterval(run, EVERY_MS).unref();
  /** Stops the timer and waits for a run in progress. */
  return async () => {
    clearInterval(timer);
    await running;
  };
}
