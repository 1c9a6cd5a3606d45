// Prism's process: configuration → database → app → listen, and a graceful shutdown. With
// WORKERS above one (PostgreSQL only), this process migrates, seeds and resolves the secret once,
// then forks that many server processes that share the port (node's cluster) and stays their
// primary, which also gathers their metrics.
import cluster from "node:cluster";
import { buildApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { settleTopPassages } from "./features/resonance/service.ts";
import { loggerOptions } from "./log.ts";
import { answerWorkers, clusterMetrics, serveMetrics } from "./metrics.ts";
import { resolveAppSecret } from "./secret.ts";
import { guardGlobalFetch } from "./security/guarded-dispatcher.ts";
import { addressPolicy } from "./security/outgoing-fetch.ts";
import { seedOnStart } from "./tasks/seed.ts";

/** Opens the database, migrates it, seeds it on first start; returns the resolved secret. */
async function prepare(loaded: Config) {
  const database = openDatabase(loaded.databaseUrl);
  await database.migrate();
  const config = { ...loaded, appSecret: resolveAppSecret(loaded, database) };
  await seedOnStart(database, config);
  await settleTopPassages(database.db);
  return { database, config };
}

/** One server process: the whole app, until SIGTERM or SIGINT. */
async function serve(loaded: Config, options: { migrated: boolean }) {
  const { database, config } = options.migrated
    ? { database: openDatabase(loaded.databaseUrl), config: loaded }
    : await prepare(loaded);
  // Federation, as the app runs it here, reaches no private address: nor does any connection
  // of the global fetch (Fedify's), whatever a redirect or a name's resolution says.
  guardGlobalFetch(addressPolicy(true));
  const app = await buildApp({ config, database, logger: loggerOptions(config.logLevel) });
  // A worker's metrics are served by its primary.
  if (config.metricsPort && cluster.isPrimary) {
    const metrics = await serveMetrics(config.metricsPort);
    app.addHook("onClose", () => void metrics.close());
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    // The app drains its connections (at most 8 s), then requests still in flight get 5 s more.
    const stragglers = setTimeout(() => app.server.closeAllConnections(), 13_000);
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

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    throw new ConfigError(
      `Port ${config.port} is in use: stop what listens there, or choose another port with PORT (e.g. PORT=${config.port + 1} npm start)`,
    );
  }
}

/**
 * The primary of WORKERS server processes: migrations, the demo seed and the secret happen here,
 * once, before any worker starts; a worker that dies is replaced; a signal stops them all.
 */
async function primary(loaded: Config) {
  const { database, config } = await prepare(loaded);
  await database.close();
  answerWorkers();
  if (config.metricsPort) await serveMetrics(config.metricsPort, clusterMetrics);
  // Every worker hashes visitors with the same key, whichever of them a request reaches.
  const env = config.appSecret ? { APP_SECRET: config.appSecret } : {};
  let stopping = false;
  let alive = 0;
  const fork = () => {
    alive += 1;
    cluster.fork(env);
  };

  const served = new Set<number>();
  cluster.on("exit", (worker, code, signal) => {
    alive -= 1;
    if (stopping) {
      if (alive === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (!served.has(worker.id)) {
      // It never listened: another would fail the same way. Stop, as a single process would.
      console.error(`Prism worker ${worker.process.pid} failed to start (${signal ?? code})`);
      stop();
      process.exitCode = 1;
      return;
    }
    console.error(
      `Prism worker ${worker.process.pid} stopped (${signal ?? code}); starting another`,
    );
    fork();
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);

  let listening = 0;
  cluster.on("listening", (worker) => {
    served.add(worker.id);
    listening += 1;
    if (listening === config.workers) {
      console.log(`\n  Prism is running at ${config.appOrigin} (${config.workers} processes)\n`);
    } else if (listening > config.workers) {
      // In a rolling restart, the sign that the next process may be stopped.
      console.log(`Prism worker ${worker.process.pid} took the place of a stopped one`);
    }
  });
  for (let i = 0; i < config.workers; i++) fork();
}

async function main() {
  const loaded = loadConfig();
  if (loaded.workers === 1) {
    await serve(loaded, { migrated: false });
    console.log(`\n  Prism is running at ${loaded.appOrigin}\n`);
  } else if (cluster.isPrimary) {
    await primary(loaded);
  } else {
    await serve(loaded, { migrated: true });
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
