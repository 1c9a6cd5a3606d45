// What every feature's routes and reads are given: built once by buildApp, passed as the
// routes' plugin options. Types only, so that no feature imports the app that registers it.
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";
import type { EventBus } from "./live/bus.ts";
import type { Versions } from "./live/versions.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { LimitStore } from "./plugins/rate-limit-store.ts";

export interface AppDeps {
  config: Config;
  db: Db;
  database: Database;
  bus: EventBus;
  versions: Versions;
  mailer: Mailer;
  /** HMAC key for visitor hashes and entity tags. */
  secret: string;
  /** Where the rate limits keep their counters. */
  limitStore: LimitStore;
}
