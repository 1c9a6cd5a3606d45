// A command's write context for tests, on a real event bus, with the events it announced; and
// the mail part of a command that sends mail, keeping what it sends.
import type { PrismEvent } from "../../contract/events.ts";
import type { MailContext, WriteContext } from "../commands/write.ts";
import type { Database } from "../db/client.ts";
import { EventBus } from "../live/bus.ts";
import type { Mailer } from "../mail/mailer.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./helpers.ts";

/** A message a command sent. */
export type SentMail = Parameters<Mailer["send"]>[0];

/** A write context acting as `actor`; `events` fills as the commands run on it announce. */
export function writeAs<Actor>(
  database: Database,
  actor: Actor,
): WriteContext<Actor> & { events: PrismEvent[] } {
  const bus = new EventBus(database);
  const events: PrismEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return { db: database.db, bus, actor, events };
}

/**
 * Runs a command as `actor`, as its route would: what it answered (as `result`, or under `key`),
 * and the events it announced.
 */
export async function run<Actor, T, K extends string = "result">(
  database: Database,
  actor: Actor,
  command: (write: WriteContext<Actor>) => Promise<T>,
  key?: K,
): Promise<{ [P in K]: T } & { events: PrismEvent[] }> {
  const write = writeAs(database, actor);
  const result = await command(write);
  return { [key ?? "result"]: result, events: write.events } as { [P in K]: T } & {
    events: PrismEvent[];
  };
}

/**
 * A mail part whose mailer keeps what it is given to send, in `sent` (the SMTP path has its own
 * tests); `canSend: false` as on a server without SMTP_URL, which sends nothing.
 */
export function outbox({
  canSend = true,
  contactTo,
}: {
  canSend?: boolean;
  contactTo?: string;
} = {}): { mail: MailContext; sent: SentMail[] } {
  const sent: SentMail[] = [];
  const mailer: Mailer = {
    canSend,
    send: async (message) => {
      if (canSend) sent.push(message);
    },
  };
  return { mail: { mailer, appOrigin: TEST_ORIGIN, contactTo, secret: TEST_SECRET }, sent };
}
