// `npm run db:migrate`: applies the committed migrations to the configured database.
import { withDatabase } from "./cli.ts";

await withDatabase(async (database) => {
  console.log(`Migrations applied (${database.kind}).`);
});
