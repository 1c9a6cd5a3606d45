// The only ways a member leaves the server: public fields, the names explore shows, or the
// member's own view.
import type { ExploreMember } from "../../../contract/explore.ts";
import type { CurrentUser, PublicUser } from "../../../contract/user.ts";
import type { UserRow } from "../../db/schema.ts";

/** A member by their id and the names they are shown by: nothing else of the account. */
export function presentPerson(
  user: Pick<UserRow, "id" | "username" | "firstName" | "lastName" | "displayName">,
) {
  return {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: user.displayName,
  };
}

export function presentPublicUser(user: UserRow): PublicUser {
  return {
    ...presentPerson(user),
    websiteUrl: user.websiteUrl,
    twitterUrl: user.twitterUrl,
    linkedinUrl: user.linkedinUrl,
    profileImageUrl: user.profileImageUrl,
    websiteVerified: user.websiteUrl !== null && user.websiteVerified,
    membersOnly: user.anonymousResponses === "members",
    listed: user.listed,
  };
}

/**
 * A member as explore shows them: first and last name only where no display name stands instead,
 * and their photo for their avatar.
 */
export function presentExploreMember(user: ExploreMember): ExploreMember {
  const named = Boolean(user.displayName?.trim());
  const person = { ...presentPerson(user), profileImageUrl: user.profileImageUrl };
  return named ? { ...person, firstName: "", lastName: "" } : person;
}

export function presentCurrentUser(user: UserRow): CurrentUser {
  return {
    ...presentPublicUser(user),
    email: user.email,
    isAdmin: user.isAdmin,
    authProvider: user.authProvider,
    googleConnected: user.googleId !== null,
    hasPassword: user.password !== null,
    websiteCheckedAt: user.websiteCheckedAt?.toISOString() ?? null,
    lastActiveAt: user.lastActiveAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    preapproveMembers: user.preapproveMembers,
    preapproveTeammates: user.preapproveTeammates,
    notifyTeamPrisms: user.notifyTeamPrisms,
    emailNotifications: user.emailNotifications,
    anonymousResponses: user.anonymousResponses,
    anonymousLinks: user.anonymousLinks,
    watchedWords: user.watchedWords,
    federated: user.federated,
    approveFollowers: user.approveFollowers,
  };
}
