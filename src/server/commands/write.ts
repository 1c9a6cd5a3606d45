// What every command is given, and the one way it writes: a transaction whose events are
// announced once it has committed, so that no page's cache outlives a change it missed.
import type { PrismEvent } from "../../contract/events.ts";
import type { Config } from "../config.ts";
import type { Db, Executor } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import type { EventBus } from "../live/bus.ts";
import type { Mailer } from "../mail/mailer.ts";
import { narrowToPrisms } from "./hearers.ts";

/** The database, the event bus, and who acts (a member, or for some commands any visitor). */
export interface WriteContext<Actor = UserRow> {
  db: Db;
  bus: EventBus;
  actor: Actor;
}

/** What a command that sends mail, or reads a link it sent, is given besides. */
export interface MailContext {
  mailer: Mailer;
  /** Where the links in a message lead. */
  appOrigin: string;
  /** The team's address for contact messages, when it has one. */
  contactTo: string | undefined;
  /** The key that signs unsubscribe links. */
  secret: string;
}

/** The write context of a command that sends mail. */
export type MailingWrite<Actor = UserRow> = WriteContext<Actor> & { mail: MailContext };

/** Records events that announce what the transaction changed, for after its commit. */
export type Recorder = (...events: PrismEvent[]) => void;

/** What a route's plugin is given that its write contexts are made of. */
interface WriterDeps {
  db: Db;
  bus: EventBus;
  mailer: Mailer;
  config: Pick<Config, "appOrigin" | "contactTo">;
  secret: string;
}

/** A route's write contexts: the plugin's database, bus and mail, acting as `actor`. */
export function writer({ db, bus, mailer, config, secret }: WriterDeps) {
  const mail: MailContext = {
    mailer,
    appOrigin: config.appOrigin,
    contactTo: config.contactTo,
    secret,
  };
  return <Actor>(actor: Actor): MailingWrite<Actor> => ({ db, bus, actor, mail });
}

/**
 * Runs `work` in one transaction and, once it has committed, announces the events it recorded;
 * a transaction that fails announces nothing.
 */
export async function commit<T>(
  { db, bus }: WriteContext<unknown>,
  work: (tx: Executor, record: Recorder) => Promise<T>,
): Promise<T> {
  let events: PrismEvent[] = [];
  const result = await db.transaction(async (tx) => {
    const done = await work(tx, (...recorded) => events.push(...recorded));
    events = await narrowToPrisms(tx, events);
    return done;
  });
  await bus.publish(...events);
  return result;
}
