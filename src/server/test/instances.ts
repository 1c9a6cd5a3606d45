// Other instances of Prism for tests: another OS process serving the same database, and the
// database's name to point it at.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { TEST_ORIGIN } from "./helpers.ts";

/** The name of the database a connection uses (PostgreSQL only). */
export async function databaseName(database: Database): Promise<string> {
  const result = (await database.db.execute(sql`select current_database() as name`)) as unknown;
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  return (rows[0] as { name: string }).name;
}

/**
 * Starts Prism in another OS process on the given database, with `settings` added to its
 * environment (TRUST_PROXY, …); resolves once it listens.
 */
export async function spawnInstance(
  databaseUrl: string,
  settings: Record<string, string> = {},
): Promise<{ origin: string; stop(): Promise<void> }> {
  const script = fileURLToPath(new URL("./serve-app.ts", import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", script, databaseUrl, TEST_ORIGIN, JSON.stringify(settings)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.stdin?.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("second instance did not start")), 30_000);
      child.once("exit", (code) => reject(new Error(`second instance exited with ${code}`)));
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      lines.on("line", (line) => {
        try {
          const { port: given } = JSON.parse(line) as { port?: number };
          if (given) {
            clearTimeout(timer);
            resolve(given);
          }
        } catch {
          // Not the ready line.
        }
      });
    });
    return { origin: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
