// Saving a prism: the new title and text, its annotations anchored again in the new text, and the
// events for its list, its annotations and its hearts. One transaction.
import type { PrismEvent } from "../../contract/events.ts";
import type { PrismInput } from "../../contract/prisms.ts";
import type { Db } from "../db/client.ts";
import type { PrismRow, UserRow } from "../db/schema.ts";
import { reanchorAnnotations } from "../features/annotations/service.ts";
import { updatePrism } from "../features/prisms/service.ts";
import type { WithEvents } from "../live/bus.ts";
import { annotationAudience } from "../policy.ts";

export async function savePrism(
  db: Db,
  owner: UserRow,
  prismId: number,
  input: PrismInput,
): Promise<WithEvents<{ prism: PrismRow }>> {
  return db.transaction(async (tx) => {
    const { prism, heartsReset, contentChanged } = await updatePrism(tx, owner, prismId, input);
    const moved = contentChanged ? await reanchorAnnotations(tx, prism.id, prism.content) : [];
    const { username } = owner;
    const events: PrismEvent[] = [{ type: "prisms.changed", username }];
    if (moved.length > 0) {
      events.push({
        type: "annotation.changed",
        prismId: prism.id,
        username,
        audience: annotationAudience(owner.id, moved),
      });
    }
    if (heartsReset) {
      events.push({ type: "heart.changed", prismId: prism.id, heartsCount: 0, username });
    }
    return { prism, events };
  });
}
