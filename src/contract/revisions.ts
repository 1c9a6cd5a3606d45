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
