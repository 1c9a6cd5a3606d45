// A member's account: their profile (a new e-mail address told to the old one), and its deletion
// with everything that is theirs; and what an admin does to a member (the admin flag, deactivating
// and reactivating). Each is one transaction whose events follow its commit: the member's page and
// list, their roles, their sessions' streams; mail follows it too.
import type { PrismEvent } from "../../contract/events.ts";
import type { ProfileUpdate } from "../../contract/user.ts";
import type { UserRow } from "../db/schema.ts";
import { prismsAnnotatedBy } from "../features/annotations/service.ts";
import {
  deactivateUser as deactivate,
  reactivateUser as reactivate,
  setAdminFlag as writeAdminFlag,
  setSilenced as writeSilenced,
} from "../features/catalyst/service.ts";
import { uncountHeartsOf } from "../features/hearts/service.ts";
import { forgetNotificationsBy, toldOfResponsesBy } from "../features/notifications/service.ts";
import { type WebsiteFetching, websiteLinksBack } from "../features/settings/rel-me.ts";
import {
  mailEmailChanged,
  recordWebsiteCheck,
  updateProfile as writeProfile,
} from "../features/settings/service.ts";
import { handOverTeamsOf } from "../features/teams/service.ts";
import { deleteUser, usernamesOf } from "../features/users/service.ts";
import { refreshTop } from "./prisms.ts";
import { commit, type MailingWrite, type Recorder, type WriteContext } from "./write.ts";

/** The member's public page changed: their list and their profile. */
const pageChanged = (record: Recorder, { username }: Pick<UserRow, "username">) =>
  record({ type: "prisms.changed", username }, { type: "profile.changed", username });

/**
 * Fetches the member's website (outside any transaction) and records whether it links back to
 * their Prism page with rel="me". A member without a website is answered as they are.
 */
async function checkWebsiteOf(
  write: MailingWrite,
  user: UserRow,
  fetching: WebsiteFetching,
): Promise<UserRow> {
  const { websiteUrl, username } = user;
  if (websiteUrl === null) return user;
  const profileUrl = `${write.mail.appOrigin}/${username}`;
  const verified = await websiteLinksBack(websiteUrl, profileUrl, fetching);
  const checked = await commit(write, async (tx, record) => {
    const checked = await recordWebsiteCheck(tx, user.id, websiteUrl, verified);
    if (checked) record({ type: "profile.changed", username });
    return checked;
  });
  return checked ?? user;
}

/**
 * The member changes their own profile. When its e-mail address changed, the old address is told
 * once the change has committed: answered as `mailed`, whose failure is the route's to log. A new
 * website is checked for its rel="me" link back before the answer.
 */
export async function updateProfile(
  write: MailingWrite,
  input: ProfileUpdate,
  fetching: WebsiteFetching,
): Promise<{ user: UserRow; mailed: Promise<void> }> {
  const before = write.actor;
  const saved = await commit(write, async (tx, record) => {
    const user = await writeProfile(tx, before.id, input);
    record({ type: "profile.changed", username: user.username });
    return user;
  });
  const user =
    saved.websiteUrl === before.websiteUrl ? saved : await checkWebsiteOf(write, saved, fetching);
  const { mailer, appOrigin } = write.mail;
  const mailed =
    input.email === before.email
      ? Promise.resolve()
      : mailEmailChanged(mailer, appOrigin, before, user.email);
  return { user, mailed };
}

/** The member asks for their website to be checked again ("Check again" in Profile Settings). */
export function checkWebsite(write: MailingWrite, fetching: WebsiteFetching): Promise<UserRow> {
  return checkWebsiteOf(write, write.actor, fetching);
}

/**
 * Deletes the member's account. Their prisms go (with those prisms' hearts, annotations and
 * notifications, by cascade), as do their hearts on other prisms (the counts corrected first),
 * their annotations elsewhere, their notifications and sessions; a team they were the last owner
 * of passes to another of its members, or goes when nobody else is in it. Every page that changed
 * hears.
 */
export function deleteAccount(write: WriteContext<Pick<UserRow, "id">>): Promise<void> {
  const userId = write.actor.id;
  return commit(write, async (tx, record) => {
    const recounted = await uncountHeartsOf(tx, userId);
    const annotated = await prismsAnnotatedBy(tx, userId);
    const notifiedUserIds = await forgetNotificationsBy(tx, userId);
    await handOverTeamsOf(tx, userId);
    const { username } = await deleteUser(tx, userId);

    // Other members' prisms whose hearts or annotations changed (the member's own went with them).
    const touched = new Map<number, { heartsCount: number; ownerId: number }>();
    for (const row of [...annotated, ...recounted]) {
      if (row.ownerId !== userId) touched.set(row.prismId, row);
    }
    const ownerNames = await usernamesOf(tx, [
      ...new Set([...touched.values()].map((row) => row.ownerId)),
    ]);
    record({ type: "sessions.ended", userId });
    pageChanged(record, { username });
    for (const [prismId, { heartsCount, ownerId }] of touched) {
      const owner = ownerNames.get(ownerId) ?? "";
      record(
        { type: "heart.changed", prismId, heartsCount, username: owner },
        { type: "annotation.changed", prismId, username: owner },
      );
      // Their responses no longer count toward its top passage.
      await refreshTop(tx, record, prismId, owner);
    }
    record(
      ...notifiedUserIds.map((id): PrismEvent => ({ type: "notifications.changed", userId: id })),
    );
  });
}

/**
 * An admin grants or revokes a member's admin flag (not their own revoke); the audit log records
 * it, and what the member may see changes with their roles.
 */
export function setAdminFlag(
  write: WriteContext,
  userId: number,
  isAdmin: boolean,
): Promise<UserRow> {
  return commit(write, async (tx, record) => {
    const user = await writeAdminFlag(tx, write.actor, userId, isAdmin);
    record({ type: "roles.changed", userId });
    return user;
  });
}

/**
 * An admin deactivates a member (not themselves): every session of theirs ends, and so do their
 * open streams on every instance; their page is gone. Audited.
 */
export function deactivateUser(write: WriteContext, userId: number): Promise<UserRow> {
  return commit(write, async (tx, record) => {
    const user = await deactivate(tx, write.actor, userId);
    record({ type: "sessions.ended", userId });
    pageChanged(record, user);
    return user;
  });
}

/** An admin reactivates a member: they may sign in again and their page is back. Audited. */
export function reactivateUser(write: WriteContext, userId: number): Promise<UserRow> {
  return commit(write, async (tx, record) => {
    const user = await reactivate(tx, write.actor, userId);
    pageChanged(record, user);
    return user;
  });
}

/**
 * An admin silences a member, or lets them be heard again (not their own silencing): every
 * response of theirs is shown to them and to admins alone while silenced, as Hypothesis' NIPSA
 * does, and makes no notification; what they had told owners is hidden from their lists. Each
 * prism whose responses changed is told, and so is each owner's list; its top passage follows
 * the approved ones. Audited.
 */
export function silenceUser(
  write: WriteContext,
  userId: number,
  silenced: boolean,
): Promise<UserRow> {
  return commit(write, async (tx, record) => {
    const { user, prisms } = await writeSilenced(tx, write.actor, userId, silenced);
    for (const { prismId, ownerId, ownerUsername, approved } of prisms) {
      record({
        type: "annotation.changed",
        prismId,
        username: ownerUsername,
        // Approved ones were (or become) everyone's; the others the owner's and the author's.
        audience: approved ? undefined : [ownerId, userId],
      });
      if (approved) await refreshTop(tx, record, prismId, ownerUsername);
    }
    // What the responses told owners leaves their lists, or comes back.
    if (prisms.length > 0) {
      for (const told of await toldOfResponsesBy(tx, userId)) {
        record({ type: "notifications.changed", userId: told });
      }
    }
    return user;
  });
}
