// `npm run restore -- FILE [--force]`: loads a backup into the embedded database's folder;
// `--force` replaces a database already there.
import { embeddedDataDir, restoreEmbedded, USE_PG_DUMP } from "../src/server/db/embedded.ts";
import { run } from "./cli.ts";

const args = process.argv.slice(2);
const force = args.includes("--force");
const [file, ...rest] = args.filter((arg) => arg !== "--force");
if (!file || rest.length > 0 || file.startsWith("-")) {
  console.error("Usage: npm run restore -- FILE [--force]");
  process.exit(2);
}

await run(async (config) => {
  const dataDir = embeddedDataDir(config.databaseUrl, USE_PG_DUMP, "restore into");
  await restoreEmbedded(file, dataDir, { force });
  console.log(`Restored ${file} into ${dataDir}. Start Prism with \`npm start\`.`);
});
