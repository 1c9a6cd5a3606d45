// A test server in an OS process of its own: a script that prints one JSON line `{"port": n}`
// once listening, and stops when its stdin closes (serve-app.ts, app-host.ts). Both sides are here:
// the test's, which starts one, and the script's, which says its port and stops when told.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

/** Runs `script` (TypeScript, through tsx) with `args`; resolves once it says its port. */
export async function spawnServer(
  script: string,
  args: string[],
): Promise<{ port: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
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
      const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 30_000);
      child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
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
    return { port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * In the server's script, once it listens on `port`: says so on stdout, and runs `close` (at most
 * 5 s) then exits when stdin closes (the test, or the test runner, went away) or on SIGTERM.
 */
export function serveUntilStopped(port: number, close: () => Promise<void>) {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    await close().catch(() => {});
    process.exit(0);
  };
  process.stdin.on("end", () => void stop());
  process.stdin.on("close", () => void stop());
  process.stdin.resume();
  process.on("SIGTERM", () => void stop());
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}
