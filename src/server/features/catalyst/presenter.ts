// How the admin tables' rows and the audit log leave the server: dates as ISO strings, never a
// password hash, Google id or visitor hash.
import type {
  AuditEntry,
  CatalystAnnotation,
  CatalystContactMessage,
  CatalystPrism,
  CatalystReport,
  CatalystTeam,
  CatalystUser,
} from "../../../contract/catalyst.ts";
import { excerpt } from "../../../contract/excerpt.ts";
import type { ContactMessageRow, UserRow } from "../../db/schema.ts";
import { presentPerson } from "../users/presenter.ts";
import type { listAnnotations, listAudit, listPrisms, listReports, listTeams } from "./service.ts";

type ItemOf<T extends (...args: never[]) => Promise<{ items: unknown[] }>> = Awaited<
  ReturnType<T>
>["items"][number];

export function presentCatalystUser(user: UserRow): CatalystUser {
  return {
    ...presentPerson(user),
    email: user.email,
    isAdmin: user.isAdmin,
    lastActiveAt: user.lastActiveAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    deactivatedAt: user.deactivatedAt?.toISOString() ?? null,
    silencedAt: user.silencedAt?.toISOString() ?? null,
  };
}

export function presentCatalystPrism(row: ItemOf<typeof listPrisms>): CatalystPrism {
  const { prism, author, annotationsCount } = row;
  return {
    prism: { ...prism, createdAt: prism.createdAt.toISOString() },
    author,
    annotationsCount,
  };
}

export function presentCatalystTeam(row: ItemOf<typeof listTeams>): CatalystTeam {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

export function presentCatalystAnnotation(row: ItemOf<typeof listAnnotations>): CatalystAnnotation {
  const { annotation, prism, author, flags } = row;
  return {
    annotation: { ...annotation, createdAt: annotation.createdAt.toISOString() },
    prism,
    author: author && presentPerson(author),
    flags,
  };
}

export function presentAuditEntry({ entry, actor }: ItemOf<typeof listAudit>): AuditEntry {
  return {
    id: entry.id,
    createdAt: entry.createdAt.toISOString(),
    actor,
    action: entry.action as AuditEntry["action"],
    targetType: entry.targetType as AuditEntry["targetType"],
    targetId: entry.targetId,
    target: entry.details?.target ?? "",
    before: entry.details?.before ?? null,
    after: entry.details?.after ?? null,
  };
}

export function presentContactMessage(row: ContactMessageRow): CatalystContactMessage {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

export function presentReport(row: ItemOf<typeof listReports>): CatalystReport {
  const { report, member, prism, response } = row;
  return {
    id: report.id,
    reporter: report.reporterActorId,
    reporterDomain: report.reporterDomain,
    member,
    prism,
    response: response && { id: response.id, text: excerpt(response.text, 140) },
    comment: report.comment,
    createdAt: report.createdAt.toISOString(),
    dismissedAt: report.dismissedAt?.toISOString() ?? null,
  };
}
