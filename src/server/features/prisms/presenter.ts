// The one way a prism leaves the server.
import type { Prism } from "../../../contract/prisms.ts";
import type { PrismRow } from "../../db/schema.ts";

export function presentPrism(prism: PrismRow): Prism {
  return {
    id: prism.id,
    userId: prism.userId,
    title: prism.title,
    content: prism.content,
    index: prism.index,
    heartsCount: prism.heartsCount,
    editedAfterHearts: prism.editedAfterHearts,
    responders: prism.responders,
    createdAt: prism.createdAt.toISOString(),
    updatedAt: prism.updatedAt.toISOString(),
    editedAt: prism.revision > 1 ? prism.updatedAt.toISOString() : null,
    topPassage: prism.topPassage ?? null,
  };
}
