// `npm run db:move -- postgres://…`: copies the embedded database (DATABASE_URL=pglite:DIR, else
// ./data/pglite) into an empty PostgreSQL, and says what to set to run Prism there.
import { moveToPostgres } from "../src/server/tasks/move.ts";
import { run } from "./cli.ts";

const [target, ...rest] = process.argv.slice(2);
if (!target || rest.length > 0) {
  console.error("Usage: npm run db:move -- postgres://user@host:5432/database");
  process.exit(2);
}

await run(async (config) => {
  const { tables, appSecret } = await moveToPostgres(config, target, {
    onMigrated: () =>
      console.log(`Migrations applied in ${target}. Copying from ${config.databaseUrl}:`),
    onTable: ({ table, rows }) =>
      console.log(
        `  ${table.padEnd(22)}${String(rows).padStart(7)} ${rows === 1 ? "row" : "rows"}`,
      ),
  });
  console.log(
    [
      `Every table (${tables.length}) holds as many rows in PostgreSQL as in the embedded database.`,
      "",
      "Next, run Prism with these set (the secret keeps visitors' hearts and responses theirs):",
      `  DATABASE_URL=${target}`,
      ...(appSecret ? [`  APP_SECRET=${appSecret}`] : []),
      "and start it with `npm start`.",
    ].join("\n"),
  );
});
