// The budget check on a real build: a small app laid out as Prism's visitor pages are, whose
// profile page carries as much incompressible script as a story asks for.
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module, also run outside TypeScript
import { bundleBudget } from "./bundle-budget.mjs";

let root: string;

/** A module of about `bytes` brotli bytes: random hex digits, which brotli halves and no more. */
const page = (bytes: number) =>
  `export default ${JSON.stringify(randomBytes(bytes).toString("hex"))};\n`;

async function writeApp(profileBytes: number, profileImports = "") {
  const files: Record<string, string> = {
    "index.html": '<script type="module" src="/main.js"></script>',
    "main.js": [
      'import("./features/landing/landing-page.tsx");',
      'import("./features/profile/profile-page.tsx");',
      'import("./features/explore/explore-page.tsx");',
      'import("./features/terms/terms-page.tsx");',
    ].join("\n"),
    "features/landing/landing-page.tsx": page(2_000),
    "features/profile/profile-page.tsx": profileImports + page(profileBytes),
    "features/explore/explore-page.tsx": page(2_000),
    "features/terms/terms-page.tsx": page(2_000),
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const buildWithBudget = (maxBytes: number, external: string[] = []) =>
  build({
    root,
    configFile: false,
    logLevel: "silent",
    build: { write: false, rollupOptions: { external } },
    plugins: [bundleBudget({ maxBytes })],
  });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "prism-budget-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the visitor pages' script budget", () => {
  it("fails the build when one visitor page's brotli script is over the budget, naming it", async () => {
    await writeApp(30_000);
    await expect(buildWithBudget(20_000)).rejects.toThrow(/Over budget: \/\{username\}\./);
  });

  it("lets the build through when every visitor page is within the budget", async () => {
    await writeApp(10_000);
    await expect(buildWithBudget(20_000)).resolves.toBeDefined();
  });

  it("counts only the chunks of the build when a page imports something that is not one", async () => {
    await writeApp(10_000, 'import "https://example.com/outside.js";\n');
    await expect(
      buildWithBudget(20_000, ["https://example.com/outside.js"]),
    ).resolves.toBeDefined();
  });
});
