// One heart reaching N open pages: N event streams on this process (opened by bench/streams.ts in
// a process of its own), the memory they cost this process, how long each heart takes to reach
// every one of them, and how long the event loop is held meanwhile.
import { type ChildProcess, spawn } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface StreamsReport {
  streams: number;
  hearts: number;
  /** This process's growth with the streams open, after a full garbage collection. */
  heapBytesPerStream: number;
  rssBytesPerStream: number;
  /** From sending the heart to each stream reading it, over every stream and heart. */
  reachMs: { p50: number; p99: number; max: number };
  /** While the hearts fan out. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /**
   * This process's CPU time per heart (the toggle and its fan-out to every stream), in its own
   * code and in the kernel's (on loopback, sending also runs the receiving side's TCP): unlike
   * the times above, it hardly moves with what else the machine is running.
   */
  cpuMsPerHeart: { user: number; system: number };
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

/**
 * Opens `count` streams on the app at `base`, then sends `hearts` hearts to `heartPath` one after
 * another (each once every stream has the one before) and times their arrival.
 */
export async function measureStreams(options: {
  base: string;
  origin: string;
  heartPath: string;
  count: number;
  hearts: number;
}): Promise<StreamsReport> {
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
  try {
    const opened = await next();
    if (opened.open !== options.count) throw new Error(`only ${opened.open} streams opened`);
    const open = settledMemory();
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const reach: number[] = [];
    const cpu = process.cpuUsage();
    delay.enable();
    for (let heart = 0; heart < options.hearts; heart++) {
      const arrived = next();
      const sent = performance.timeOrigin + performance.now();
      const response = await fetch(`${options.base}${options.heartPath}`, {
        method: "POST",
        headers: { origin: options.origin, cookie: `vid=bench-streams-heart-${heart % 2}00000` },
      });
      if (!response.ok) throw new Error(`heart: HTTP ${response.status}`);
      await response.arrayBuffer();
      const { arrivals } = (await arrived) as { arrivals: number[] };
      for (const at of arrivals) reach.push(at - sent);
    }
    delay.disable();
    const { user, system } = process.cpuUsage(cpu);
    reach.sort((a, b) => a - b);
    const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
    return {
      streams: options.count,
      hearts: options.hearts,
      heapBytesPerStream: Math.round((open.heapUsed - before.heapUsed) / options.count),
      rssBytesPerStream: Math.round((open.rss - before.rss) / options.count),
      reachMs: {
        p50: Number(percentile(reach, 50).toFixed(1)),
        p99: Number(percentile(reach, 99).toFixed(1)),
        max: Number((reach.at(-1) ?? 0).toFixed(1)),
      },
      eventLoopDelayMs: {
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
      },
      cpuMsPerHeart: {
        user: Number((user / 1000 / options.hearts).toFixed(1)),
        system: Number((system / 1000 / options.hearts).toFixed(1)),
      },
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin?.end();
      await exited;
    }
  }
}
