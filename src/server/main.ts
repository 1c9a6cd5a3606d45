// Prism's process: configuration → database → app → listen, and a graceful shutdown.
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { seedOnStart } from "./db/seed.ts";
import { loggerOptions } from "./log.ts";
import { resolveAppSecret } from "./secret.ts";

async function main() {
  const loaded = loadConfig();
  const database = openDatabase(loaded.databaseUrl);
  await database.migrate();
  const config = { ...loaded, appSecret: resolveAppSecret(loaded, database) };
  const app = await buildApp({
    config,
    database,
    logger: loggerOptions(config.logLevel),
  });
  await seedOnStart(database, config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    // Requests in flight get 5 s; connections that never send one (pre-opened sockets) are then cut.
    const stragglers = setTimeout(() => app.server.closeAllConnections(), 5_000);
    stragglers.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  console.log(`\n  Prism is running at ${config.appOrigin}\n`);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
