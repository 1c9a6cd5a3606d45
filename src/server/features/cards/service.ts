// What a share card shows, read from the database: the member (active ones only, their username
// in any case) and the prism, theirs, or the first on their page.
import { and, asc, eq } from "drizzle-orm";
import { type CardContent, cardContent } from "../../../contract/cards.ts";
import type { Db } from "../../db/client.ts";
import { prisms } from "../../db/schema.ts";
import { notFound } from "../../http-error.ts";
import { getActiveUser } from "../users/service.ts";

export interface CardRead {
  card: CardContent;
  /** The member's username as registered (the address may spell it in another case). */
  username: string;
}

/**
 * The card of `username`'s page (`prismId` null) or of their prism `prismId`: 404 when the member
 * is missing or deactivated, or the prism is not theirs or not public. A page's card shows its
 * first public prism.
 */
export async function readCard(
  db: Db,
  username: string,
  prismId: number | null,
): Promise<CardRead> {
  const owner = await getActiveUser(db, username);
  const [prism] = await db
    .select({ title: prisms.title, content: prisms.content })
    .from(prisms)
    .where(
      and(
        eq(prisms.userId, owner.id),
        // A card is for whoever the link is shared with: it shows public prisms alone.
        eq(prisms.audience, "public"),
        prismId === null ? undefined : eq(prisms.id, prismId),
      ),
    )
    .orderBy(asc(prisms.index))
    .limit(1);
  if (prismId !== null && !prism) throw notFound("Prism not found");
  return { card: cardContent(owner, prism ?? null), username: owner.username };
}
