// The one way a prism leaves the server: as pages show it, and as the member's export keeps it.
import type { MemberExport } from "../../../contract/export.ts";
import { htmlToPlainText } from "../../../contract/plain-text.ts";
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
    audience: prism.audience,
    createdAt: prism.createdAt.toISOString(),
    updatedAt: prism.updatedAt.toISOString(),
    editedAt: prism.revision > 1 ? prism.updatedAt.toISOString() : null,
    topPassage: prism.topPassage ?? null,
  };
}

/**
 * A prism in its member's export: at its address on their page, its content as HTML and as plain
 * text; the member is the export's own.
 */
export function presentExportedPrism(prism: PrismRow, url: string): MemberExport["prisms"][number] {
  const { id, userId: _userId, title, content, ...shown } = presentPrism(prism);
  return { id, url, title, html: content, text: htmlToPlainText(content), ...shown };
}
