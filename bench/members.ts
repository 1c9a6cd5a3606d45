// Many members at once for scale runs: each with one prism, last active at a different moment
// (one in ten never), written by set-based SQL so 100,000 take seconds, not minutes.
import { sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client.ts";

/** Usernames of the seeded members: `bench-member-1` … `bench-member-<count>`. */
export const benchUsername = (n: number) => `bench-member-${n}`;

/**
 * Adds members `from`…`to` (`bench-member-N`, password-less) with one unhearted prism each, then
 * refreshes the planner's statistics and the visibility map so that plans are those of a settled
 * database. One in ten never signed in (`last_active_at` null).
 */
export async function seedMembers(db: Db, to: number, from = 1, batch = 20_000): Promise<void> {
  for (let first = from; first <= to; first += batch) {
    const last = Math.min(to, first + batch - 1);
    await db.execute(sql`
      with added as (
        insert into users (username, email, first_name, last_name, last_active_at, created_at)
        select 'bench-member-' || n, 'bench-member-' || n || '@bench.example', 'Bench', 'Member ' || n,
               case when n % 10 = 0 then null
                    else now() - make_interval(secs => ((n * 7919) % 100003) * 60) end,
               now() - make_interval(secs => n)
        from generate_series(${first}::int, ${last}::int) as n
        returning id, username
      )
      insert into prisms (user_id, title, content, index, created_at)
      select id, 'How ' || username || ' works', '<p>Short answers, early drafts, kind reviews.</p>',
             0, now() - make_interval(secs => id)
      from added`);
  }
  await db.execute(sql`vacuum analyze users`);
  await db.execute(sql`vacuum analyze prisms`);
}

/** How many members the cold share-card scenario may draw a card of: `bench-card-1` … */
const CARD_MEMBERS = 20_000;

/**
 * Adds `CARD_MEMBERS` members (`bench-card-N`) with one prism each, whose title and text name the
 * member, so that every one of their cards shows something of its own.
 */
export async function seedCardMembers(db: Db): Promise<void> {
  await db.execute(sql`
    with added as (
      insert into users (username, email, first_name, last_name, created_at)
      select 'bench-card-' || n, 'bench-card-' || n || '@bench.example', 'Card', 'Member ' || n, now()
      from generate_series(1, ${CARD_MEMBERS}::int) as n
      returning id, username
    )
    insert into prisms (user_id, title, content, index, created_at)
    select id, 'How ' || username || ' answers', '<p>Mornings for ' || username ||
           ': short answers, early drafts, kind reviews, and a walk before the hard part.</p>', 0, now()
    from added`);
}
