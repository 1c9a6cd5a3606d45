// The audit log: every admin action, every decision of an owner's review queue, and every change
// to a team, is written inside the transaction of the act it records.
import type { AuditAction, AuditTargetType, AuditValues } from "../contract/catalyst.ts";
import { excerpt } from "../contract/excerpt.ts";
import type { Executor } from "./db/client.ts";
import { auditLog, type UserRow } from "./db/schema.ts";

export interface AuditRecord {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: number;
  /** How the target reads now (a username, a title), kept in case it is deleted later. */
  target: string;
  before?: AuditValues | null;
  after?: AuditValues | null;
}

/** What `audit_log.details` holds. */
export interface AuditDetails {
  target: string;
  before: AuditValues | null;
  after: AuditValues | null;
}

/** Writes one line of the log for each record, by `actor`, in one statement. */
export async function recordAudit(tx: Executor, actor: UserRow, ...records: AuditRecord[]) {
  if (records.length === 0) return;
  await tx.insert(auditLog).values(
    records.map((record) => {
      const details: AuditDetails = {
        target: record.target,
        before: record.before ?? null,
        after: record.after ?? null,
      };
      return {
        actorId: actor.id,
        action: record.action,
        targetType: record.targetType,
        targetId: record.targetId,
        details,
      };
    }),
  );
}

/** How an annotation is named in the log: the start of its text and the prism it answers. */
export function annotationLabel(row: { annotationText: string; prismTitle: string }): string {
  return `"${excerpt(row.annotationText, 60)}" on "${row.prismTitle}"`;
}
