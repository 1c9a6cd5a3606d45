// `npm run backup -- FILE`: writes the embedded database (PGlite) into one file.
import { backupEmbedded, embeddedDataDir, USE_PG_DUMP } from "../src/server/db/embedded.ts";
import { run } from "./cli.ts";

const [file, ...rest] = process.argv.slice(2);
if (!file || rest.length > 0) {
  console.error("Usage: npm run backup -- FILE");
  process.exit(2);
}

await run(async (config) => {
  const dataDir = embeddedDataDir(config.databaseUrl, USE_PG_DUMP, "back up");
  const bytes = await backupEmbedded(dataDir, file);
  console.log(`Backed up ${dataDir} into ${file} (${(bytes / 1e6).toFixed(1)} MB).`);
});
