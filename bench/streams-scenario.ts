// One heart reaching N open pages: N event streams on a server (opened by bench/streams.ts in a
// process of its own), how long each heart takes to reach every one of them, and what the
// server's processes spend on it: for an app in this process, also the memory the streams cost
// and how long its event loop is held; for a cluster, how long the workers that did not take the
// heart (which hear it through NOTIFY) take to pass it on.
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { connectionOwners, cpuTimeMs } from "./cluster.ts";

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

export interface StreamsReport {
  streams: number;
  hearts: number;
  /** The server's worker processes; absent when the app ran in this process. */
  workers?: number;
  /** This process's growth with the streams open, after a full GC: for an app in this process. */
  heapBytesPerStream?: number;
  rssBytesPerStream?: number;
  /** From sending the heart to each stream reading it, over every stream and heart. */
  reachMs: Percentiles;
  /**
   * On a cluster, the same for the streams of the worker that took the heart (which announces it
   * as it commits) and of the others (which hear it through NOTIFY).
   */
  reachByWorkerMs?: { tookTheHeart: Percentiles; others: Percentiles };
  /** From sending the heart to its answer. */
  answerMs: Percentiles;
  /**
   * On PostgreSQL, from sending the heart to its NOTIFY reaching a listener of the bench's own:
   * what the toggle's transaction and the notification take before any fan-out.
   */
  notifyMs?: Percentiles;
  /** While the hearts fan out: this process's, for an app in this process. */
  eventLoopDelayMs?: Percentiles;
  /**
   * The server's CPU time per heart (the toggle and its fan-out to every stream), in its own
   * code and in the kernel's (on loopback, sending also runs the receiving side's TCP): unlike
   * the times above, it hardly moves with what else the machine is running. Of this process, or
   * of the workers' (from /proc).
   */
  cpuMsPerHeart: { user: number; system: number };
  /** The stream client's, which shares the machine's cores with the server (from /proc). */
  clientCpuMsPerHeart: { user: number; system: number };
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function settledMemory() {
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

function percentiles(times: number[]): Percentiles {
  times.sort((a, b) => a - b);
  return {
    p50: Number(percentile(times, 50).toFixed(1)),
    p99: Number(percentile(times, 99).toFixed(1)),
    max: Number((times.at(-1) ?? 0).toFixed(1)),
  };
}

/** A heart, on `agent`'s one kept-alive connection; its status and the client's end of it. */
function sendHeart(url: string, headers: Record<string, string>, agent: Agent) {
  return new Promise<{ status: number; client: string }>((resolve, reject) => {
    const sent = request(url, { method: "POST", headers, agent }, (response) => {
      const { localAddress, localPort } = response.socket;
      response.resume();
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, client: `${localAddress}:${localPort}` }),
      );
    });
    sent.once("error", reject);
    sent.end();
  });
}

/**
 * Opens `count` streams on the app at `base`, then sends `hearts` hearts to `heartPath` one after
 * another (each once every stream has the one before) and times their arrival. The app runs in
 * this process, or in the `workers` processes.
 */
export async function measureStreams(options: {
  base: string;
  origin: string;
  heartPath: string;
  /** The `vid` cookies of the two browsers that heart in turn. */
  hearters: [string, string];
  /** The address the hearts come from, to an app that trusts a proxy; else the bench's own. */
  forwardedFor?: string;
  count: number;
  hearts: number;
  workers?: number[];
  /** Listens for the hearts' NOTIFYs, calling `heard` for each; resolves to its unlisten. */
  listen?: (heard: () => void) => Promise<() => Promise<void>>;
}): Promise<StreamsReport> {
  const { workers } = options;
  const port = Number(new URL(options.base).port);
  const before = settledMemory();
  const script = fileURLToPath(new URL("./streams.ts", import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", script, options.base, String(options.count)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: { resolve(line: Record<string, unknown>): void; reject(error: Error): void }[] =
    [];
  lines.on("line", (line) => waiting.shift()?.resolve(JSON.parse(line) as Record<string, unknown>));
  child.once("exit", (code) => {
    for (const waiter of waiting.splice(0)) {
      waiter.reject(new Error(`the stream client exited (${code})`));
    }
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => waiting.push({ resolve, reject }));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const now = () => performance.timeOrigin + performance.now();
  const heardAt: number[] = [];
  let onHeard: (() => void) | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  try {
    unlisten = await options.listen?.(() => {
      heardAt.push(now());
      onHeard?.();
    });
    const opened = (await next()) as { open: number; clients: string[] };
    if (opened.open !== options.count) throw new Error(`only ${opened.open} streams opened`);
    const open = settledMemory();
    const owners = workers && connectionOwners(workers, port, opened.clients);
    if (owners?.includes(undefined)) throw new Error("a stream's worker was not found");
    // Otherwise no heart would have to cross from one worker to another.
    if (workers && new Set(owners).size < workers.length) {
      throw new Error("some worker holds none of the streams");
    }
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const reach: number[] = [];
    const byWorker = { tookTheHeart: [] as number[], others: [] as number[] };
    /** The worker of each connection the hearts were sent on (one, unless it was closed). */
    const heartOwners = new Map<string, number | undefined>();
    const answers: number[] = [];
    const notified: number[] = [];
    const cpu = workers ? undefined : process.cpuUsage();
    const workersCpu = workers && cpuTimeMs(workers);
    const clientCpu = cpuTimeMs([child.pid ?? 0]);
    delay.enable();
    for (let heart = 0; heart < options.hearts; heart++) {
      const arrived = next();
      const sent = now();
      const response = await sendHeart(
        `${options.base}${options.heartPath}`,
        {
          origin: options.origin,
          cookie: heart % 2 ? options.hearters[1] : options.hearters[0],
          ...(options.forwardedFor ? { "x-forwarded-for": options.forwardedFor } : {}),
        },
        agent,
      );
      if (response.status !== 200) throw new Error(`heart: HTTP ${response.status}`);
      answers.push(now() - sent);
      const { arrivals } = (await arrived) as { arrivals: number[] };
      if (options.listen) {
        while (heardAt.length <= heart) await new Promise<void>((resolve) => (onHeard = resolve));
        notified.push((heardAt[heart] ?? sent) - sent);
      }
      for (const at of arrivals) reach.push(at - sent);
      if (workers && owners) {
        // The connection is kept alive: its worker is found after the heart, out of the timing.
        if (!heartOwners.has(response.client)) {
          heartOwners.set(response.client, connectionOwners(workers, port, [response.client])[0]);
        }
        const took = heartOwners.get(response.client);
        if (took === undefined) throw new Error("the heart's worker was not found");
        arrivals.forEach((at, stream) => {
          (owners[stream] === took ? byWorker.tookTheHeart : byWorker.others).push(at - sent);
        });
      }
    }
    delay.disable();
    const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
    const perHeart = (total: number) => Number((total / options.hearts).toFixed(1));
    const clientAfter = cpuTimeMs([child.pid ?? 0]);
    const common = {
      streams: options.count,
      hearts: options.hearts,
      reachMs: percentiles(reach),
      answerMs: percentiles(answers),
      notifyMs: options.listen ? percentiles(notified) : undefined,
      clientCpuMsPerHeart: {
        user: perHeart(clientAfter.user - clientCpu.user),
        system: perHeart(clientAfter.system - clientCpu.system),
      },
    };
    if (workers && workersCpu) {
      const after = cpuTimeMs(workers);
      return {
        ...common,
        workers: workers.length,
        reachByWorkerMs: {
          tookTheHeart: percentiles(byWorker.tookTheHeart),
          others: percentiles(byWorker.others),
        },
        cpuMsPerHeart: {
          user: perHeart(after.user - workersCpu.user),
          system: perHeart(after.system - workersCpu.system),
        },
      };
    }
    const { user, system } = process.cpuUsage(cpu);
    return {
      ...common,
      heapBytesPerStream: Math.round((open.heapUsed - before.heapUsed) / options.count),
      rssBytesPerStream: Math.round((open.rss - before.rss) / options.count),
      eventLoopDelayMs: {
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
      },
      cpuMsPerHeart: { user: perHeart(user / 1000), system: perHeart(system / 1000) },
    };
  } finally {
    agent.destroy();
    await unlisten?.();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // A line still awaited (after an error above) never comes: the client is told to end, and
      // its exit must not fail the run in place of the error that ended the measurement.
      waiting.splice(0);
      child.stdin?.end();
      await exited;
    }
  }
}
