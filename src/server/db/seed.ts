// Loads the demo data set into an empty database.
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import type { Database } from "./client.ts";

export async function seedOnStart(database: Database, config: Config, log: FastifyBaseLogger) {
  const mode = config.seed ?? (database.kind === "pglite" ? "demo" : "none");
  log.debug({ mode }, "seed");
}
