// The HMAC key for visitor hashes: APP_SECRET, else one generated once and kept in the data folder.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";

export function resolveAppSecret(config: Config, database: Database): string | undefined {
  if (config.appSecret) return config.appSecret;
  // An in-memory database forgets its visitors anyway: a per-process key is enough.
  if (database.kind === "pglite" && !database.dataDir) return undefined;
  const folder = database.dataDir ? dirname(database.dataDir) : "data";
  const file = join(folder, "app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(folder, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
