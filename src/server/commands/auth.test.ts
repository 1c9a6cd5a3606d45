// Password resets without HTTP: all or nothing, and no mail for a link that was never stored.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passwordResetMessages } from "../../../contract/password-reset.ts";
import { confirmPasswordReset } from "../../commands/auth.ts";
import { auditLog, passwordResetTokens, sessions, users } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { hashToken, newToken } from "../../security/tokens.ts";
import { buildResetToken, buildUser } from "../../test/builders.ts";
import { expectRefused, refuseWrites } from "../../test/faults.ts";
import { setupTestDatabase, signIn } from "../../test/helpers.ts";
import { run } from "../../test/write.ts";
import { adminResetPassword } from "./service.ts";

const t = setupTestDatabase();

/** A reset link's new password, as its route sets it (commands/auth.ts), with its events. */
const confirmReset = (token: string, password: string) =>
  run(t.database, null, (write) => confirmPasswordReset(write, token, password));

/** Keeps what it is given to send (the SMTP path has its own tests). */
function outbox() {
  const sent: Parameters<Mailer["send"]>[0][] = [];
  return {
    sent,
    mailer: { canSend: true, send: async (mail) => void sent.push(mail) } satisfies Mailer,
  };
}

async function stateOf(userId: number) {
  const { db } = t.database;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return {
    password: user?.password,
    tokens: await db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, userId))
      .orderBy(passwordResetTokens.id),
    sessions: (await db.select().from(sessions).where(eq(sessions.userId, userId))).length,
    audit: await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "user"), eq(auditLog.targetId, userId))),
  };
}

/** A member signed in once, with two reset links outstanding; the first one's token. */
async function memberWithLinks() {
  const user = await buildUser(t.database);
  await signIn(t.database, user);
  const token = newToken();
  await buildResetToken(t.database, { userId: user.id, tokenHash: hashToken(token) });
  await buildResetToken(t.database, { userId: user.id });
  return { user, token };
}

describe("confirmReset", () => {
  it("sets the password, uses up every link of the member, and signs them out everywhere", async () => {
    const { user, token } = await memberWithLinks();
    const { events } = await confirmReset(token, "a-brand-new-secret");
    const after = await stateOf(user.id);
    expect(after.password).not.toBe(user.password);
    expect(after.tokens.map((row) => row.usedAt)).toEqual([expect.any(Date), expect.any(Date)]);
    expect(after.sessions).toBe(0);
    expect(events).toEqual([{ type: "sessions.ended", userId: user.id }]);
    await expect(confirmReset(token, "again-and-again")).rejects.toMatchObject({
      statusCode: 400,
      message: passwordResetMessages.invalidToken,
    });
  });

  it("changes nothing when signing the member out fails: password and links stay as they were", async () => {
    const { user, token } = await memberWithLinks();
    const before = await stateOf(user.id);
    await refuseWrites(t.database, "sessions", "delete");
    await expectRefused(confirmReset(token, "a-brand-new-secret"));
    expect(await stateOf(user.id)).toEqual(before);
  });
});

describe("adminResetPassword", () => {
  it("stores a link, audits it and mails it to the member", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const user = await buildUser(t.database);
    const { sent, mailer } = outbox();
    await adminResetPassword(t.database.db, mailer, "https://prism.example", admin, user.id);
    const after = await stateOf(user.id);
    expect(after.audit).toEqual([
      expect.objectContaining({ actorId: admin.id, action: "user.reset-password" }),
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe(user.email);
    const token = sent[0]?.text.match(/reset-password\?token=([\w-]+)/)?.[1] ?? "";
    expect(after.tokens.map((row) => row.tokenHash)).toEqual([hashToken(token)]);
  });

  it("sends nothing and stores no link when the audit line cannot be written", async () => {
    const admin = await buildUser(t.database, { isAdmin: true });
    const user = await buildUser(t.database);
    const { sent, mailer } = outbox();
    await refuseWrites(t.database, "audit_log", "insert");
    await expectRefused(
      adminResetPassword(t.database.db, mailer, "https://prism.example", admin, user.id),
    );
    expect((await stateOf(user.id)).tokens).toEqual([]);
    expect(sent).toEqual([]);
  });
});
