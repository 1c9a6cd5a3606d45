// The web tests' real servers (real-server.ts) are apps of one process started here, once a run
// (app-host.ts), each on a fresh in-memory database made from a migrated PGlite, made once a run
// as the server tests' is, rather than each test file starting a process and a cluster of its own.
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { spawnServer } from "../../server/test/child-server.ts";
import { makePgliteImage } from "../../server/test/global-setup.ts";
import { APP_HOST, PGLITE_IMAGE } from "../../server/test/provided.ts";

export async function setup(project: TestProject) {
  const removeImage = await makePgliteImage(project);
  const script = fileURLToPath(new URL("../../server/test/app-host.ts", import.meta.url));
  const host = await spawnServer(script, [project.getProvidedContext()[PGLITE_IMAGE]]);
  project.provide(APP_HOST, `http://127.0.0.1:${host.port}`);
  return async () => {
    await host.stop();
    await removeImage();
  };
}
