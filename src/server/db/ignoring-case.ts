// Usernames and e-mails are unique whatever their case: the indexes are on `lower(…)`, and so are
// the lookups that must use them.
import { type Placeholder, type SQL, sql } from "drizzle-orm";
import type { users } from "./schema.ts";

/** The column equals the value, ignoring case. */
export function sameIgnoringCase(
  column: typeof users.username | typeof users.email,
  value: string | Placeholder,
): SQL {
  return sql`lower(${column}) = lower(${value})`;
}
