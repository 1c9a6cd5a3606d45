// Prism's metrics, in Prometheus's text format: how fast requests are answered, how live updates
// and the answer caches fare, how busy the database is, and the process's own figures. With
// WORKERS above one, the primary gathers every worker's (prom-client's AggregatorRegistry:
// counters and histograms add up across workers), whichever process is asked.
import cluster from "node:cluster";
import { createServer, type Server } from "node:http";
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  register,
} from "prom-client";
import type { Database } from "./db/client.ts";

// Memory, CPU, event-loop delay, garbage collection, handles: Node's own figures.
collectDefaultMetrics();

export const requestDuration = new Histogram({
  name: "prism_http_request_duration_seconds",
  help: "Seconds to answer a request, by method, route pattern and status (event streams, which stay open, are left out)",
  labelNames: ["method", "route", "status_code"] as const,
});

export const rateLimitRefusals = new Counter({
  name: "prism_rate_limit_refusals_total",
  help: "Requests answered 429 because a rate limit or a cap of open streams was reached, by route pattern",
  labelNames: ["route"] as const,
});

export const openStreams = new Gauge({
  name: "prism_event_streams_open",
  help: "Live-update streams (GET /api/events) open now",
});

export const eventsDelivered = new Counter({
  name: "prism_events_delivered_total",
  help: "Events written to open streams as they happened (one per event and stream)",
});

export const deliveryLag = new Histogram({
  name: "prism_event_delivery_lag_seconds",
  help: "Seconds from an event reaching this process (published here, or heard from another instance) to its frame written on the last open stream it reached",
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

export const cacheHits = new Counter({
  name: "prism_cache_hits_total",
  help: "Answers and data served from memory, by cache",
  labelNames: ["cache"] as const,
});

export const cacheMisses = new Counter({
  name: "prism_cache_misses_total",
  help: "Lookups in memory that had to ask the database (or build the answer), by cache",
  labelNames: ["cache"] as const,
});

/** The databases the pool gauges report, each with how many apps use it. */
const databases = new Map<Database, number>();
const poolGauge = (name: string, help: string, figure: keyof ReturnType<Database["usage"]>) =>
  new Gauge({
    name,
    help,
    collect() {
      let sum = 0;
      for (const database of databases.keys()) sum += database.usage()[figure];
      this.set(sum);
    },
  });
poolGauge("prism_db_pool_size", "Database connections the process may hold", "size");
poolGauge(
  "prism_db_pool_in_use",
  "Database connections running a query or holding a transaction",
  "inUse",
);
poolGauge(
  "prism_db_pool_waiting",
  "Queries and transactions waiting for a database connection",
  "waiting",
);

/** Reports the database's connections in the pool gauges; the returned function stops it. */
export function watchPool(database: Database): () => void {
  databases.set(database, (databases.get(database) ?? 0) + 1);
  return () => {
    const users = (databases.get(database) ?? 1) - 1;
    if (users === 0) databases.delete(database);
    else databases.set(database, users);
  };
}

// In the primary, this asks the workers for their metrics; in a worker, prom-client answers it.
const workersMetrics = new AggregatorRegistry();
const ASK = "prism:metrics";
const ANSWER = "prism:metrics-answer";
type Answer = { type: typeof ANSWER; id: number; text?: string; error?: string };

/** Every worker's metrics, added up (in the primary of a cluster). */
export function clusterMetrics(): Promise<string> {
  return workersMetrics.clusterMetrics();
}

/** In the primary: answers a worker that was asked for the metrics with every worker's. */
export function answerWorkers() {
  cluster.on("message", (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== ASK) return;
    clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: unknown) => worker.send({ type: ANSWER, id: message.id, error: String(error) }),
    );
  });
}

let asked = 0;
/** A worker's requests for the metrics that the primary has not answered yet, by id. */
const unanswered = new Map<number, (answer: Answer) => void>();
if (cluster.isWorker) {
  process.on("message", (message: Answer) => {
    if (message?.type === ANSWER) unanswered.get(message.id)?.(message);
  });
}

/** The metrics in Prometheus's text format: this process's, or in a cluster every worker's. */
export function metricsText(): Promise<string> {
  if (!cluster.isWorker) return register.metrics();
  const id = asked++;
  return new Promise((resolve, reject) => {
    unanswered.set(id, (answer) => {
      unanswered.delete(id);
      if (answer.text === undefined) reject(new Error(answer.error));
      else resolve(answer.text);
    });
    process.send?.({ type: ASK, id });
  });
}

export const metricsContentType = register.contentType;

/**
 * Serves GET /metrics on 127.0.0.1:`port` without a token: only processes on this host reach it
 * (a scraper beside Prism). Resolves once it listens.
 */
export function serveMetrics(port: number, text: () => Promise<string> = metricsText) {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    text().then(
      (body) =>
        response
          .writeHead(200, { "content-type": metricsContentType, "cache-control": "no-store" })
          .end(body),
      () => response.writeHead(500).end(),
    );
  });
  return new Promise<Server>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
