// A prism's history on the wire: its versions, newest first, for its owner and admins.
import { z } from "zod";
import { limits } from "./limits.ts";
import { idParam } from "./paging.ts";

export const revisionParams = z.object({
  id: idParam,
  number: z.coerce.number().int().positive().max(limits.idMax),
});

/** One version in the list: the current one, and those kept from before it. */
export const revisionSummarySchema = z.object({
  number: z.number().int(),
  title: z.string(),
  /** When this version was saved. */
  createdAt: z.string(),
  current: z.boolean(),
});
export type RevisionSummary = z.infer<typeof revisionSummarySchema>;

export const revisionSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  /** Its sanitized HTML. */
  content: z.string(),
  createdAt: z.string(),
});
export type Revision = z.infer<typeof revisionSchema>;

export const revisionMessages = {
  /** History, when two versions differ by too many words to mark each (see word-changes.ts). */
  tooManyChanges:
    "Too many changes to mark word by word: from the first change to the last, the earlier version's words are struck through and this version's underlined.",
} as const;
