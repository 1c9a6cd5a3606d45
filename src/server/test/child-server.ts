// A test server in an OS process of its own: a script that prints one JSON line `{"port": n}`
// once listening, and stops when its stdin closes (serve-app.ts, app-host.ts).
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
