// What every feature's routes and reads are given: started once by buildApp, passed as the
// routes' plugin options, so that no feature imports the app that registers it.
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { Versions } from "./cache/versions.ts";
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";
import { EventBus } from "./live/bus.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { type LimitStore, limitStoreFor } from "./plugins/rate-limit-store.ts";

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

/** The app's dependencies, its event bus listening until the app closes. */
export async function startDeps(
  app: FastifyInstance,
  given: { config: Config; database: Database; limitStore?: LimitStore },
): Promise<AppDeps> {
  const { config, database } = given;
  const bus = new EventBus(database);
  await bus.start();
  app.addHook("onClose", () => bus.stop());
  const secret = config.appSecret ?? randomBytes(32).toString("hex");
  return {
    config,
    db: database.db,
    database,
    bus,
    versions: new Versions(bus, secret),
    mailer: createMailer(config, app.log),
    secret,
    limitStore: given.limitStore ?? limitStoreFor(database),
  };
}
