// Readers' flags on a response, as one SQL expression per response: how many different people
// flagged it and how many gave each reason. The owner's review queue counts the flags they have
// not settled; Catalyst counts every one.
import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { FlagSummary } from "../../contract/annotations.ts";
import { annotationFlags } from "./schema.ts";

/** Flags of the response whose id is `annotationId` (every one, or those not yet settled). */
function flagsOf(annotationId: PgColumn, unsettledOnly: boolean): SQL {
  return sql`${annotationFlags.annotationId} = ${annotationId}${
    unsettledOnly ? sql` and ${annotationFlags.resolvedAt} is null` : sql``
  }`;
}

/** The number of different people who flagged the response. */
export function flagCountOf(annotationId: PgColumn, unsettledOnly = false): SQL<number> {
  return sql<number>`(select count(*) from ${annotationFlags} where ${flagsOf(annotationId, unsettledOnly)})::int`;
}

/** The response's `FlagSummary`: its count, and each reason given with how many gave it. */
export function flagSummaryOf(annotationId: PgColumn, unsettledOnly = false): SQL<FlagSummary> {
  return sql<FlagSummary>`(select json_build_object(
      'count', coalesce(sum(r.n), 0)::int,
      'reasons', coalesce(json_agg(json_build_object('reason', r.reason, 'count', r.n)
        order by r.n desc, r.reason) filter (where r.reason is not null), '[]'::json))
    from (select ${annotationFlags.reason} as reason, count(*)::int as n from ${annotationFlags}
      where ${flagsOf(annotationId, unsettledOnly)} group by ${annotationFlags.reason}) r)`;
}
