import { defineConfig } from "vitest/config";

// Two projects: the server's tests (and the security suite and scripts) share their worker
// processes, which load the server's modules once rather than once per file; every file builds its
// own app on its own database, so nothing else carries over. The web tests keep a fresh module
// graph per file, as their module-level state (the live stream's status) needs.
//
// Every test runs on PGlite. The server's test files whose outcome can depend on the engine under
// them are named *.postgres.test.ts, and `npm test` runs those again on PostgreSQL (TEST_DB=postgres):
// several connections, processes or instances on one database (transactions, locks, concurrent
// writers, the commands), LISTEN/NOTIFY, a lost connection, the rate-limit store (a table there,
// memory on PGlite), the driver's memory, queries whose plan or SQL the server's version could
// answer otherwise, migrations, seeding and the move into PostgreSQL. The rest runs on PGlite
// alone: it is PostgreSQL's own engine, and answers those tests' SQL as the server does. A test that
// needs PostgreSQL itself runs there alone (`runIf(testDatabaseUrl())`), in such a file
// (src/server/test/engines.test.ts checks).
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
          // Node's built-ins kept before any test file loads a library that replaces them.
          setupFiles: ["src/server/natives.ts"],
          include: [
            "src/server/**/*.test.ts",
            "tests/security/**/*.test.ts",
            "tests/spam/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          isolate: false,
        },
      },
      {
        test: {
          ...timeouts,
          name: "web",
          globalSetup: ["src/web/test/global-setup.ts"],
          setupFiles: ["src/web/test/setup.ts"],
          include: ["src/web/**/*.test.ts", "src/web/**/*.test.tsx", "src/contract/**/*.test.ts"],
        },
      },
    ],
  },
});
