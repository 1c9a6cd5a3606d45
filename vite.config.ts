import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";
// @ts-expect-error: a plain ES module, also run outside TypeScript
import { bundleBudget } from "./scripts/bundle-budget.mjs";

const apiPort = Number(process.env.API_PORT ?? 3001);

export default defineConfig(({ isSsrBuild }) => ({
  root: "src/web",
  publicDir: isSsrBuild ? false : "public",
  // Every script, style and text asset is compressed once here (brotli and gzip, beside the
  // original), so the server sends the smaller file without compressing per request. The
  // server's renderer (`--ssr`) is one self-contained module for Node.
  plugins: isSsrBuild
    ? [react()]
    : [
        react(),
        tailwindcss(),
        compression({ exclude: /\.html$/, logLevel: "silent" }),
        bundleBudget({ maxBytes: 100_000 }),
      ],
  build: isSsrBuild
    ? { outDir: "../../dist/server", emptyOutDir: true, sourcemap: true }
    : // The manifest (which file holds which page's code) is for the server, not served. Every
      // module the app's entry imports statically (React, the router, the query client, the
      // layout, the button) goes into one chunk, the one every page loads: one file compresses
      // better than the ten small ones the bundler would otherwise make of them.
      {
        outDir: "../../dist/web",
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] } },
        },
      },
  ssr: { noExternal: true },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: {
      "/api": `http://127.0.0.1:${apiPort}`,
      "/auth/google": `http://127.0.0.1:${apiPort}`,
    },
  },
}));
