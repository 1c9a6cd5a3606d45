// `npm run seed`: loads the demo data set into the configured database.
import { seedDemo } from "../src/server/tasks/seed.ts";
import { withDatabase } from "./cli.ts";

await withDatabase(async (database) => {
  const admin = await seedDemo(database.db);
  console.log(
    `Demo data loaded. Demo admin — username: ${admin.username}  password: ${admin.password}`,
  );
});
