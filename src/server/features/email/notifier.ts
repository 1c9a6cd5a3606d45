// Sends e-mail notifications from this process: a member on "immediately" is mailed as soon as a
// notification for them is announced (after its transaction committed); members on "daily" get
// their digest from a timer that looks every few minutes (unref'd, stopped when the app closes),
// which also sends what a refused message left waiting. A message the mail server refuses for now
// is tried again a few times, then left for the timer. With several processes each looks, and
// each notification still goes out once: claims are recorded (service.ts). Nothing is claimed
// when the server cannot send mail. An anonymous author who left an address is told of the
// decision on their response and of the reply, each once (author-mail.ts).
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import type { AppDeps } from "../../deps.ts";
import type { EventBus } from "../../live/bus.ts";
import { isTransient, MAIL_RETRY_WAITS_MS, type Mailer, sendRetrying } from "../../mail/mailer.ts";
import {
  type AuthorMailAbout,
  claimAuthorMail,
  composeAuthorMessage,
  releaseAuthorMail,
} from "./author-mail.ts";
import { composeMessage } from "./messages.ts";
import {
  authorUnsubscribeToken,
  claimDigests,
  claimImmediate,
  markMailed,
  type Outgoing,
  releaseClaim,
  unsubscribeToken,
} from "./service.ts";

/** How often the digest timer looks for digests due. */
const LOOK_EVERY_MS = 10 * 60 * 1000;

export interface EmailNotifier {
  /**
   * Sends the digests due now, and what refused messages left waiting for members who want each
   * notification at once; resolves with how many messages went out.
   */
  runDigest(): Promise<number>;
  /** Resolves once the messages under way have gone (or failed). */
  idle(): Promise<void>;
  /** Stops the timer and waits for messages under way. */
  stop(): Promise<void>;
}

interface NotifierDeps {
  db: Db;
  bus: EventBus;
  mailer: Mailer;
  origin: string;
  secret: string;
  log: FastifyBaseLogger;
  /** The time digests are due by (tests move it on instead of waiting a day). */
  now: () => Date;
  /** The waits before each new try of a message the mail server refused for now. */
  retryWaitsMs: readonly number[];
}

/** Tells an anonymous author of a decision or a reply, once; a refused message is given back. */
async function tellAuthor(deps: NotifierDeps, annotationId: number, about: AuthorMailAbout) {
  const { db, mailer, origin, secret, log, now, retryWaitsMs } = deps;
  const mail = await claimAuthorMail(db, annotationId, about, now());
  if (!mail) return 0;
  const token = authorUnsubscribeToken(secret, annotationId);
  try {
    await sendRetrying(mailer, composeAuthorMessage(mail, origin, token), retryWaitsMs);
    return 1;
  } catch (error) {
    const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
    log.warn({ code, responseCode, annotationId }, "e-mail to a response's author failed");
    await releaseAuthorMail(db, mail);
    return 0;
  }
}

/**
 * The app's e-mail notifications (`app.emailNotifier`), from now until the app closes; `given`
 * moves the clock and the waits between tries away from the real ones (tests).
 */
export function startEmailNotifier(
  app: FastifyInstance,
  deps: AppDeps,
  given: { now?: () => Date; mailRetryWaitsMs?: readonly number[] },
) {
  const notifier = emailNotifier({
    ...deps,
    origin: deps.config.appOrigin,
    log: app.log,
    now: given.now ?? (() => new Date()),
    retryWaitsMs: given.mailRetryWaitsMs ?? MAIL_RETRY_WAITS_MS,
  });
  app.decorate("emailNotifier", notifier);
  app.addHook("onClose", () => notifier.stop());
}

function emailNotifier(deps: NotifierDeps): EmailNotifier {
  const { db, bus, mailer, origin, secret, log, now, retryWaitsMs } = deps;
  if (!mailer.canSend)
    return { runDigest: async () => 0, idle: async () => {}, stop: async () => {} };
  const underWay = new Set<Promise<number>>();
  const track = (work: Promise<number>) => {
    underWay.add(work);
    void work.finally(() => underWay.delete(work));
    return work;
  };
  /**
   * Sends what was claimed, and marks it mailed once the server accepted it; a message that fails
   * gives its claim back, and is logged by its member alone, never its text. Once the server
   * refused one for now, the rest of the run is given back untried, for the next run.
   */
  const send = async (claimed: Outgoing[]) => {
    let sent = 0;
    let refusing = false;
    for (const outgoing of claimed) {
      if (refusing) {
        await releaseClaim(db, outgoing, true);
        continue;
      }
      const message = composeMessage(
        outgoing,
        origin,
        unsubscribeToken(secret, outgoing.recipient.id),
      );
      try {
        await sendRetrying(mailer, message, retryWaitsMs);
      } catch (error) {
        // The error's text may name the recipient: only its codes are logged.
        const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
        log.warn(
          { code, responseCode, userId: outgoing.recipient.id },
          "e-mail notification failed",
        );
        refusing = isTransient(error);
        await releaseClaim(db, outgoing, refusing);
        continue;
      }
      await markMailed(db, outgoing, now());
      sent++;
    }
    return sent;
  };
  const attempt = (claiming: () => Promise<Outgoing[]>, what: string) =>
    track(
      claiming()
        .then(send)
        .catch((error) => {
          log.warn({ err: error }, `${what} failed`);
          return 0;
        }),
    );
  const unsubscribe = bus.subscribe((event) => {
    // Hearts and decisions are never mailed: only what may be is looked for, off the heart's path.
    if (event.type === "notification.created" && event.mail) {
      void attempt(() => claimImmediate(db, event.userId, now()), "e-mail notification");
    }
    // What a refused message left waiting goes with the next: a decision before its reply.
    if (event.type === "response.mail") {
      const { annotationId } = event;
      const both = async () =>
        (await tellAuthor(deps, annotationId, "decision")) +
        (await tellAuthor(deps, annotationId, "reply"));
      void track(
        both().catch((error) => {
          log.warn({ err: error }, "e-mail to a response's author failed");
          return 0;
        }),
      );
    }
  });
  const runDigest = () =>
    attempt(
      async () => [...(await claimDigests(db, now())), ...(await claimImmediate(db, null, now()))],
      "daily digest",
    );
  void runDigest();
  const timer = setInterval(runDigest, LOOK_EVERY_MS).unref();
  const idle = async () => {
    while (underWay.size > 0) await Promise.allSettled([...underWay]);
  };
  return {
    runDigest,
    idle,
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await idle();
    },
  };
}

declare module "fastify" {
  interface FastifyInstance {
    /** This process's e-mail notifications (tests run the digest by hand). */
    emailNotifier: EmailNotifier;
  }
}
