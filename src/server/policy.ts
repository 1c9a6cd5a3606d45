// Who may do what: the one place the server decides, mirrored in what responses tell the page.
import type { PrismRow, UserRow } from "./db/schema.ts";

type Actor = Pick<UserRow, "id" | "isAdmin"> | null;

export function canEditPrism(actor: Actor, prism: Pick<PrismRow, "userId">): boolean {
  return actor !== null && actor.id === prism.userId;
}

/** Owners decide on annotations of their prisms; admins may set any status. */
export function canModerateAnnotations(actor: Actor, prism: Pick<PrismRow, "userId">): boolean {
  return actor !== null && (actor.id === prism.userId || actor.isAdmin);
}
