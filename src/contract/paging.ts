// `?limit=10&offset=N`: how every paged list is asked for, how a page comes back with its total,
// and the integer ids in paths that name one row.
import { z } from "zod";
import { limits } from "./limits.ts";

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(limits.pageSizeMax).default(limits.pageSize),
  offset: z.coerce.number().int().min(0).max(limits.idMax).default(0),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** A row's id in a path: a positive integer that fits the database's integer column. */
export const idParam = z.coerce.number().int().positive().max(limits.idMax);

/** One page of a list and how many rows the whole list has, for a pager that shows page counts. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}
export interface Page<T> {
  items: T[];
  total: number;
}

/** The page with each of its rows made into what `shape` makes of it. */
export function mapPage<T, U>(page: Page<T>, shape: (row: T) => U): Page<U> {
  return { items: page.items.map(shape), total: page.total };
}
