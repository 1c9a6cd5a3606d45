// `npm run admin -- grant <username>` (or `revoke <username>`): sets a member's admin flag.

import { sameIgnoringCase } from "../src/server/db/ignoring-case.ts";
import { users } from "../src/server/db/schema.ts";
import { EventBus } from "../src/server/live/bus.ts";
import { withDatabase } from "./cli.ts";

const [action, username] = process.argv.slice(2);
if ((action !== "grant" && action !== "revoke") || !username) {
  console.error("Usage: npm run admin -- grant <username>   (or: revoke <username>)");
  process.exit(2);
}

await withDatabase(async (database) => {
  const [user] = await database.db
    .update(users)
    .set({ isAdmin: action === "grant" })
    .where(sameIgnoringCase(users.username, username))
    .returning({ id: users.id, username: users.username });
  if (!user) throw new Error(`No member is called ${username}`);
  // Running servers on the same PostgreSQL end the member's open streams, as for a change made
  // in Catalyst: their pages reconnect as who the member now is.
  await new EventBus(database).publish({ type: "roles.changed", userId: user.id });
  console.log(
    action === "grant"
      ? `${user.username} is now an admin.`
      : `${user.username} is no longer an admin.`,
  );
});
