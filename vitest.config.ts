import { defineConfig } from "vitest/config";

// Two projects: the server's tests (and the security suite and scripts) share their worker
// processes, which load the server's modules once rather than once per file; every file builds its
// own app on its own database, so nothing else carries over. The web tests keep a fresh module
// graph per file, as their module-level state (the live stream's status) needs.
const timeouts = { testTimeout: 20_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...timeouts,
          name: "server",
          globalSetup: ["src/server/test/global-setup.ts"],
          include: [
            "src/server/**/*.test.ts",
            "tests/security/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          isolate: false,
        },
      },
      {
        test: {
          ...timeouts,
          name: "web",
          setupFiles: ["src/web/test/setup.ts"],
          include: ["src/web/**/*.test.ts", "src/web/**/*.test.tsx", "src/contract/**/*.test.ts"],
        },
      },
    ],
  },
});
