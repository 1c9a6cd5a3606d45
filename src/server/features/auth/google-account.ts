// Which member a Google sign-in is: found by Google id, or created; never linked by e-mail to an
// account that has a password (e-mails typed into Prism are not verified, so an attacker could
// have registered the victim's address first). Members connect Google while signed in instead.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { isReservedUsername, limits } from "../../../contract/limits.ts";
import { oneLine } from "../../../contract/text.ts";
import type { Executor } from "../../db/client.ts";
import { sameIgnoringCase } from "../../db/ignoring-case.ts";
import { type UserRow, users } from "../../db/schema.ts";
import { findUserByUsername } from "../users/service.ts";

/** The id_token claims we use; a bad picture URL is dropped rather than failing the sign-in. */
export const googleClaimsSchema = z.object({
  sub: z.string().min(1),
  email: z.email().max(limits.emailMax),
  email_verified: z.union([z.boolean(), z.literal("true").transform(() => true)]).catch(false),
  given_name: z.string().optional().catch(undefined),
  family_name: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  picture: z
    .url({ protocol: /^https?$/ })
    .max(limits.urlMax)
    .optional()
    .catch(undefined),
});
export type GoogleProfile = z.infer<typeof googleClaimsSchema>;

/** Why a Google sign-in or connection was refused, as the `error` the pages explain. */
export class GoogleRefusal extends Error {
  constructor(
    readonly code: "google-account-exists" | "google-already-linked" | "google-wrong-account",
  ) {
    super(code);
  }
}

/**
 * By Google id, else a new member (`created`). An account with the same e-mail is refused when it
 * has a password (GoogleRefusal); one without (none is made so today) is linked on a verified
 * e-mail.
 */
export async function findOrCreateUser(
  db: Executor,
  profile: GoogleProfile,
): Promise<{ user: UserRow; created: boolean }> {
  const [byGoogleId] = await db.select().from(users).where(eq(users.googleId, profile.sub));
  if (byGoogleId) return { user: byGoogleId, created: false };

  const [byEmail] = await db
    .select()
    .from(users)
    .where(sameIgnoringCase(users.email, profile.email));
  if (byEmail) {
    if (byEmail.password !== null) throw new GoogleRefusal("google-account-exists");
    // An unverified address proves nothing about who owns the existing account.
    if (!profile.email_verified) throw new Error("e-mail not verified; refusing to link");
    if (byEmail.googleId) throw new Error("account is linked to another Google account");
    if (byEmail.deactivatedAt) return { user: byEmail, created: false };
    const [linked] = await db
      .update(users)
      .set({ googleId: profile.sub, profileImageUrl: byEmail.profileImageUrl ?? profile.picture })
      .where(eq(users.id, byEmail.id))
      .returning();
    if (!linked) throw new Error("link returned no row");
    return { user: linked, created: false };
  }

  const localPart = profile.email.slice(0, profile.email.lastIndexOf("@"));
  const [first, ...others] = (profile.name ?? "").trim().split(/\s+/);
  // One line, as every name is, whatever the provider sends.
  const name = (value: string | undefined) =>
    oneLine(value ?? "")
      .trim()
      .slice(0, limits.nameMax) || undefined;
  const [created] = await db
    .insert(users)
    .values({
      username: await uniqueUsername(db, localPart),
      email: profile.email,
      firstName: name(profile.given_name) ?? name(first) ?? name(localPart) ?? "Member",
      lastName: name(profile.family_name) ?? name(others.join(" ")) ?? "Member",
      password: null,
      authProvider: "google",
      googleId: profile.sub,
      profileImageUrl: profile.picture ?? null,
      lastActiveAt: new Date(),
    })
    .returning();
  if (!created) throw new Error("insert returned no row");
  return { user: created, created: true };
}

/** Connects a Google account to the signed-in member, unless another member has it already. */
export async function connectGoogle(db: Executor, userId: number, googleId: string) {
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.googleId, googleId));
  if (holder && holder.id !== userId) throw new GoogleRefusal("google-already-linked");
  await db.update(users).set({ googleId }).where(eq(users.id, userId));
}

/** The e-mail's local part made into a valid username: "Ada.L+x" → "adalx", then "adalx-2", … */
export function usernameBase(localPart: string): string {
  const base = localPart
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, "")
    .slice(0, limits.usernameMax);
  return base.length < limits.usernameMin ? `${base}member` : base;
}

async function uniqueUsername(db: Executor, localPart: string): Promise<string> {
  const base = usernameBase(localPart);
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = base.slice(0, limits.usernameMax - suffix.length) + suffix;
    if (isReservedUsername(candidate)) continue;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
}
