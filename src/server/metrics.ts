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

/** prom-client's default buckets (seconds), which the request durations have always had. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The answers of one route, method and status: how many took up to each bucket's seconds. */
class DurationSeries {
  /** By bucket, not summed up; the last counts those over every bucket. */
  readonly counts: number[] = new Array(DURATION_BUCKETS.length + 1).fill(0);
  sum = 0;
  count = 0;

  constructor(readonly labels: { method: string; route: string; status_code: number }) {}

  observe(seconds: number) {
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) {
      bucket++;
    }
    this.counts[bucket] = (this.counts[bucket] as number) + 1;
    this.sum += seconds;
    this.count++;
  }
}

/**
 * Seconds to answer a request, by method, route pattern and status: a histogram that prom-client
 * reads as it reads its own (a metric is what has `get`), counted in numbers each route holds.
 * prom-client's own histogram made a key of the labels on every request, which cost more than the
 * rest of an answer from memory's bookkeeping; here a route finds its series by its config
 * object, and the key is made once per route and status.
 */
class RequestDurations {
  readonly name = "prism_http_request_duration_seconds";
  readonly help =
    "Seconds to answer a request, by method, route pattern and status (event streams, which stay open, are left out)";
  readonly type = "histogram";
  readonly aggregator = "sum";
  /** Every series by its labels: two apps in one process (tests) count the same route as one. */
  private readonly series = new Map<string, DurationSeries>();
  /** A route's series by method and status, found by the route's config (one object per route). */
  private byRoute = new WeakMap<object, Map<string, Map<number, DurationSeries>>>();

  observe(route: object, labels: DurationSeries["labels"], seconds: number) {
    let methods = this.byRoute.get(route);
    if (methods === undefined) {
      methods = new Map();
      this.byRoute.set(route, methods);
    }
    let statuses = methods.get(labels.method);
    if (statuses === undefined) {
      statuses = new Map();
      methods.set(labels.method, statuses);
    }
    let series = statuses.get(labels.status_code);
    if (series === undefined) {
      const key = `${labels.method} ${labels.route} ${labels.status_code}`;
      series = this.series.get(key) ?? new DurationSeries(labels);
      this.series.set(key, series);
      statuses.set(labels.status_code, series);
    }
    series.observe(seconds);
  }

  /** The figures as prom-client's histograms give theirs: buckets summed up, +Inf, sum, count. */
  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
      [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let upTo = 0;
      DURATION_BUCKETS.forEach((le, bucket) => {
        upTo += counts[bucket] as number;
        values.push({ labels: { ...labels, le }, value: upTo, metricName: `${this.name}_bucket` });
      });
      values.push(
        { labels: { ...labels, le: "+Inf" }, value: count, metricName: `${this.name}_bucket` },
        { labels, value: sum, metricName: `${this.name}_sum` },
        { labels, value: count, metricName: `${this.name}_count` },
      );
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    };
  }

  reset() {
    this.series.clear();
    this.byRoute = new WeakMap();
  }
}

export const requestDuration = new RequestDurations();
// prom-client's type names its own classes; what its registry asks of a metric is what this has.
register.registerMetric(requestDuration as unknown as Histogram);

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

/**
 * A count by cache, kept as plain numbers and added to prom-client's counter when the metrics are
 * read: an answer from memory counts a hit, and prom-client's own count made a key of its labels
 * each time.
 */
function cacheCounter(name: string, help: string) {
  const uncounted = new Map<string, number>();
  const counter = new Counter({
    name,
    help,
    labelNames: ["cache"] as const,
    collect() {
      for (const [cache, count] of uncounted) this.inc({ cache }, count);
      uncounted.clear();
    },
  });
  return {
    inc(cache: string) {
      uncounted.set(cache, (uncounted.get(cache) ?? 0) + 1);
    },
    get: () => counter.get(),
  };
}

export const cacheHits = cacheCounter(
  "prism_cache_hits_total",
  "Answers and data served from memory, by cache",
);

export const cacheMisses = cacheCounter(
  "prism_cache_misses_total",
  "Lookups in memory that had to ask the database (or build the answer), by cache",
);

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
