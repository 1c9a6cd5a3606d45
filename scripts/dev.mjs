// `npm run dev`: the API (restarting on change) on API_PORT and Vite with HMR on PORT, proxied.
import { spawn } from "node:child_process";

const port = process.env.PORT ?? "3000";
const apiPort = process.env.API_PORT ?? "3001";
const env = {
  ...process.env,
  API_PORT: apiPort,
  APP_ORIGIN: process.env.APP_ORIGIN ?? `http://localhost:${port}`,
  NODE_ENV: process.env.NODE_ENV ?? "development",
};

const children = [
  spawn("npx", ["tsx", "watch", "src/server/main.ts"], {
    stdio: "inherit",
    env: { ...env, PORT: apiPort },
  }),
  spawn("npx", ["vite"], { stdio: "inherit", env: { ...env, PORT: port } }),
];

function stop() {
  for (const child of children) child.kill("SIGTERM");
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", stop);
