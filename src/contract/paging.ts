// `?limit=10&offset=N`: how every paged list is asked for.
import { z } from "zod";
import { limits } from "./limits.ts";

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.pageSizeMax).default(limits.pageSize),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(0),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;
