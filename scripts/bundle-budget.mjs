// The visitor pages' script budget, checked on every build: the JavaScript a visitor downloads
// to read a page (the entry chunk, the page's own chunk and every chunk they import statically),
// measured brotli-compressed as the server sends it. Code a page loads on demand (dialogs, the
// editor, forms) does not count until an interaction needs it. The build fails over budget.
import { brotliCompressSync } from "node:zlib";

/** Pages a visitor reads without signing in, by the module that renders them. */
const VISITOR_PAGES = {
  "/": "features/landing/landing-page.tsx",
  "/{username}": "features/profile/profile-page.tsx",
  "/explore": "features/explore/explore-page.tsx",
  "/terms": "features/terms/terms-page.tsx",
};

export function bundleBudget({ maxBytes }) {
  return {
    name: "prism-bundle-budget",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === "chunk");
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const compressed = new Map();
      const sizeOf = (chunk) => {
        if (!compressed.has(chunk.fileName)) {
          compressed.set(chunk.fileName, brotliCompressSync(chunk.code).length);
        }
        return compressed.get(chunk.fileName);
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      const lines = [];
      const over = [];
      for (const [page, module] of Object.entries(VISITOR_PAGES)) {
        const own = chunks.find((chunk) => chunk.moduleIds.some((id) => id.endsWith(module)));
        if (!entry || !own) this.error(`No chunk renders ${page} (${module}).`);
        const loaded = new Set();
        // A chunk's imports may name what is not a chunk of this build (an external module).
        const visit = (chunk) => {
          if (!chunk || loaded.has(chunk.fileName)) return;
          loaded.add(chunk.fileName);
          for (const name of chunk.imports) visit(byName.get(name));
        };
        visit(entry);
        visit(own);
        const bytes = [...loaded].reduce((sum, name) => sum + sizeOf(byName.get(name)), 0);
        lines.push(`  ${page.padEnd(12)} ${(bytes / 1000).toFixed(1)} kB`);
        if (bytes > maxBytes) over.push(page);
      }
      const summary = `Visitor pages' scripts, brotli (budget ${maxBytes / 1000} kB):\n${lines.join("\n")}`;
      if (over.length > 0) this.error(`${summary}\nOver budget: ${over.join(", ")}.`);
      if (process.env.BUNDLE_REPORT) console.log(summary);
    },
  };
}
