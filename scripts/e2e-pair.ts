// The end-to-end suite's "pair" server (Playwright's webServer): two instances of Prism, standing
// for two machines, on one fresh PostgreSQL database, behind a round-robin proxy on PORT, as the
// README's "Several machines" sets them up: one APP_SECRET and APP_ORIGIN, TRUST_PROXY naming the
// proxy. `node --import tsx scripts/e2e-pair.ts`; it stops with its instances.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { freePort } from "../src/server/test/ports.ts";
import { startRoundRobin } from "../src/server/test/round-robin.ts";
// @ts-expect-error: a plain ES module shared with the other end-to-end scripts
import { e2ePairDatabaseUrl, recreateDatabase } from "./e2e-database.mjs";

const url: string = e2ePairDatabaseUrl();
try {
  await recreateDatabase(url);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const secret = randomBytes(32).toString("hex");
const instances: ChildProcess[] = [];
const origins: string[] = [];
const stop = () => {
  for (const instance of instances) instance.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

// One after the other: the first builds the web app when it is missing or stale.
for (let i = 0; i < 2; i++) {
  const port = await freePort();
  const instance = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: url,
      APP_SECRET: secret,
      TRUST_PROXY: "127.0.0.1",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  instance.once("exit", (code) => {
    console.error(`A Prism instance of the pair stopped (${code}).`);
    process.exit(1);
  });
  instances.push(instance);
  const origin = `http://127.0.0.1:${port}`;
  await ready(origin);
  origins.push(origin);
}
await startRoundRobin(origins, Number(process.env.PORT));

/** Resolves once `origin` answers GET /api/ready with 200, as a load balancer waits for. */
async function ready(origin: string) {
  for (;;) {
    const status = await fetch(`${origin}/api/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
