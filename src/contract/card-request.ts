// What a share card's address may carry. Apart from the card itself (./cards.ts), which reading
// pages import without the schema library.
import { z } from "zod";
import { idParam } from "./paging.ts";
import { text } from "./text.ts";
import { usernameParam } from "./user.ts";

export const profileCardParams = z.object({ username: usernameParam });
export const prismCardParams = z.object({ username: usernameParam, prismId: idParam });

/**
 * `v` names the version the page pointed to: the current one is answered, another is sent to the
 * current one's address; without it, the current card.
 */
export const cardQuery = z.object({ v: text().max(32).optional() });
