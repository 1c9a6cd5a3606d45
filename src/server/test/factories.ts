// Rows for tests, with overrides.
import type { Database } from "../db/client.ts";
import { type PrismRow, prisms } from "../db/schema.ts";

export async function buildPrism(
  database: Database,
  overrides: Partial<typeof prisms.$inferInsert> & { userId: number },
): Promise<PrismRow> {
  const [prism] = await database.db
    .insert(prisms)
    .values({
      title: "How I work",
      content: "<p>Mornings are for deep work.</p>",
      index: 0,
      ...overrides,
    })
    .returning();
  if (!prism) throw new Error("no prism");
  return prism;
}
