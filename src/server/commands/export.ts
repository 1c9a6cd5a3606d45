// "Download my data": the download itself is a read; that it happened is written down.
import { recordAudit } from "../audit.ts";
import { commit, type WriteContext } from "./write.ts";

/** The member downloads their data: the audit log records it before the download starts. */
export function recordExport(write: WriteContext): Promise<void> {
  const { actor } = write;
  return commit(write, (tx) =>
    recordAudit(tx, actor, {
      action: "user.export",
      targetType: "user",
      targetId: actor.id,
      target: actor.username,
    }),
  );
}
