// The real server as its own processes (`src/server/main.ts` with WORKERS), for the fan-out
// measurement on a cluster, and what Linux's /proc tells about them: their CPU time, and which
// of them holds each connection.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { get } from "node:http";
import { fileURLToPath } from "node:url";
import { freePort } from "../src/server/test/ports.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const HOST = "127.0.0.1";
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second on every architecture. */
const TICKS_PER_SECOND = 100;

export interface ClusterServer {
  base: string;
  /** The worker processes that serve requests (the primary only starts and replaces them). */
  workers: number[];
  /** SIGTERM, and the primary's exit once its workers have stopped. */
  stop(): Promise<void>;
}

/** GET on a connection of its own (so each request may reach another worker); its status. */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).once("error", reject);
  });
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (statFields(Number(entry))[1] === String(pid)) children.push(Number(entry));
    } catch {
      // It ended meanwhile.
    }
  }
  return children;
}

/** /proc/<pid>/stat's fields from the state on (field 3), after the command's name. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The processes' CPU time so far, in milliseconds, in their own code and in the kernel's. */
export function cpuTimeMs(pids: number[]): { user: number; system: number } {
  let user = 0;
  let system = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    user += Number(fields[11]);
    system += Number(fields[12]);
  }
  return { user: (user * 1000) / TICKS_PER_SECOND, system: (system * 1000) / TICKS_PER_SECOND };
}

/** An IPv4 `address:port` as /proc/net/tcp writes it (hex, the address in host byte order). */
function endpoint(hex: string): string {
  const [address = "", port = ""] = hex.split(":");
  const bytes = (address.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)).reverse();
  return `${bytes.join(".")}:${Number.parseInt(port, 16)}`;
}

/**
 * Which of `pids` holds the server's end of each client's connection to `port` (`address:port`
 * as the client sees its own end), or undefined.
 */
export function connectionOwners(pids: number[], port: number, clients: string[]) {
  const inodeOf = new Map<string, string>();
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [local, remote, inode] = [fields[1], fields[2], fields[9]];
    if (!local || !remote || !inode || !local.endsWith(`:${port.toString(16).toUpperCase()}`)) {
      continue;
    }
    inodeOf.set(endpoint(remote), inode);
  }
  const ownerOf = new Map<string, number>();
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (link.startsWith("socket:[")) ownerOf.set(link.slice(8, -1), pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return clients.map((client) => ownerOf.get(inodeOf.get(client) ?? ""));
}

/**
 * Starts `node --import tsx src/server/main.ts` on the database at `databaseUrl` with `workers`
 * processes, the demo data seeded, on a free loopback port and trusting no proxy (each client is
 * the address it connects from); resolves once it is ready and every worker listens.
 */
export async function startCluster(options: {
  databaseUrl: string;
  workers: number;
  appOrigin: string;
  /** Its APP_SECRET, with which the bench signs its browsers' ids. */
  appSecret: string;
}): Promise<ClusterServer> {
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    // Only what the server is told here: no TRUST_PROXY, METRICS_PORT or SMTP_URL of the shell.
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      WORKERS: String(options.workers),
      DATABASE_URL: options.databaseUrl,
      HOST,
      PORT: String(port),
      APP_ORIGIN: options.appOrigin,
      APP_SECRET: options.appSecret,
      SEED: "demo",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A bench that gives up (its deadline) exits at once: the server must not outlive it.
  const orphaned = () => child.kill("SIGTERM");
  process.once("exit", orphaned);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const stop = async () => {
    process.off("exit", orphaned);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    // The primary says so once every worker listens. New connections take turns among the
    // workers: as many 200s in a row from /api/ready as there are workers is each one ready.
    let readyInARow = 0;
    for (let waited = 0; readyInARow < options.workers; waited += 100) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      if (waited > 120_000) throw new Error("the server was not ready within 120 s");
      if (output.includes("Prism is running at")) {
        readyInARow = (await statusOf(`${base}/api/ready`)) === 200 ? readyInARow + 1 : 0;
        if (readyInARow > 0) continue;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Forked from the same script; anything else it may start (a compiler's service) is not one.
    const workers = childrenOf(child.pid ?? 0).filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("src/server/main.ts"),
    );
    if (workers.length !== options.workers) {
      throw new Error(`${workers.length} worker processes, not ${options.workers}`);
    }
    return { base, workers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
