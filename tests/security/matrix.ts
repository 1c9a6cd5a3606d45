// The routes of the security suite: who may call each (the authorization matrix), and what a
// valid call sends (the fuzzer's starting point). A fresh scene for every call keeps the calls
// from interfering.
import { randomUUID } from "node:crypto";
import type { App } from "../../src/server/app.ts";
import type { Database } from "../../src/server/db/client.ts";
import { hashToken, newToken } from "../../src/server/security/tokens.ts";
import {
  buildAnnotation,
  buildInvite,
  buildNotification,
  buildPrism,
  buildResetToken,
  buildTeam,
  buildTeamMember,
  buildUser,
} from "../../src/server/test/builders.ts";
import { signIn, TEST_ORIGIN, TEST_PASSWORD } from "../../src/server/test/helpers.ts";

export const roles = ["anonymous", "member", "owner", "admin"] as const;
export type Role = (typeof roles)[number];

/** What one call of the matrix acts on: fresh for every cell, so that writes do not interfere. */
export async function scene(database: Database) {
  // Only the owner has a website (one that never answers): the others have none to check.
  const owner = await buildUser(database, { websiteUrl: "https://owner.invalid" });
  const member = await buildUser(database);
  const admin = await buildUser(database, { isAdmin: true });
  const prism = await buildPrism(database, { userId: owner.id });
  await buildPrism(database, { userId: owner.id, index: 1, title: "Second" });
  const statusToken = newToken(16);
  const annotation = await buildAnnotation(database, {
    prismId: prism.id,
    visitorHash: "matrix-visitor",
    statusTokenHash: hashToken(statusToken),
  });
  const notification = await buildNotification(database, {
    userId: owner.id,
    prismId: prism.id,
  });
  const resetToken = newToken();
  await buildResetToken(database, { userId: owner.id, tokenHash: hashToken(resetToken) });
  // A team the owner runs and the member belongs to; the admin is not in it.
  const team = await buildTeam(database);
  await buildTeamMember(database, { teamId: team.id, userId: owner.id, role: "owner" });
  await buildTeamMember(database, { teamId: team.id, userId: member.id });
  const inviteToken = newToken();
  const invite = await buildInvite(database, {
    teamId: team.id,
    tokenHash: hashToken(inviteToken),
  });
  const headers: Record<Role, Record<string, string>> = {
    anonymous: {},
    member: await signIn(database, member),
    owner: await signIn(database, owner),
    admin: await signIn(database, admin),
  };
  return {
    owner,
    member,
    prism,
    annotation,
    statusToken,
    notification,
    resetToken,
    team,
    invite,
    inviteToken,
    headers,
  };
}
export type Scene = Awaited<ReturnType<typeof scene>>;

export interface Row {
  /** The path with its parameters filled in; the template itself when it has none. */
  url?: (s: Scene) => string;
  body?: (s: Scene) => object;
  /** The status for each role, or one for all. */
  expect: number | Record<Role, number>;
}

const everyone = (status: number) => status;
const signedIn = (status: number) => ({
  anonymous: 401,
  member: status,
  owner: status,
  admin: status,
});
const ownerOnly = (status: number, others = 403, admin = others) => ({
  anonymous: 401,
  member: others,
  owner: status,
  admin,
});
const adminOnly = (status: number) => ({ anonymous: 401, member: 403, owner: 403, admin: status });

const unique = () => randomUUID().slice(0, 8);
const prismBody = () => ({ title: "Matrix", content: "<p>Words</p>" });
/** The body of a sensitive action: every member of the scene has TEST_PASSWORD. */
const reauth = () => ({ currentPassword: TEST_PASSWORD });

export const matrix: Record<string, Row> = {
  "GET /api/health": { expect: everyone(200) },
  "GET /api/ready": { expect: everyone(200) },
  "GET /api/site": { expect: everyone(200) },
  "GET /api/db-check": { expect: adminOnly(200) },
  "POST /api/db-check/registration-flow": {
    body: () => ({
      username: `diag_${unique()}`,
      email: `diag_${unique()}@example.com`,
      password: "secret-1",
      firstName: "Dia",
      lastName: "Gnostic",
    }),
    expect: adminOnly(200),
  },
  "POST /api/db-check/reset": { expect: adminOnly(200) },
  "GET /api/demo/success": { expect: everyone(200) },
  "GET /api/demo/not-found": { expect: everyone(404) },
  "GET /api/demo/server-error": { expect: everyone(500) },
  "POST /api/register": {
    body: () => ({
      username: `new_${unique()}`,
      email: `new_${unique()}@example.com`,
      firstName: "New",
      lastName: "Member",
      password: "secret-1",
    }),
    expect: everyone(201),
  },
  "POST /api/login": {
    body: (s) => ({ username: s.owner.username, password: TEST_PASSWORD }),
    expect: everyone(200),
  },
  "POST /api/logout": { expect: everyone(204) },
  "GET /api/user": { expect: signedIn(200) },
  // The fediverse followers of the member asking; none of another's can be removed.
  "GET /api/user/followers": { expect: signedIn(200) },
  "POST /api/user/followers/{id}/accept": {
    url: () => "/api/user/followers/999999/accept",
    expect: signedIn(404),
  },
  "DELETE /api/user/followers/{id}": {
    url: () => "/api/user/followers/999999",
    expect: signedIn(404),
  },
  // The scene's response waits for review: only its prism's owner (and admins) see it, and it
  // cannot be flagged before it is published.
  "POST /api/annotations/{id}/flag": {
    url: (s) => `/api/annotations/${s.annotation.id}/flag`,
    body: () => ({ reason: "spam" }),
    expect: { anonymous: 404, member: 404, owner: 409, admin: 409 },
  },
  "GET /api/users/{username}": {
    url: (s) => `/api/users/${s.owner.username}`,
    expect: everyone(200),
  },
  "PUT /api/user/profile": {
    body: () => ({
      firstName: "Changed",
      lastName: "Name",
      email: `changed_${unique()}@example.com`,
      displayName: "",
      websiteUrl: "",
      twitterUrl: "",
      linkedinUrl: "",
      currentPassword: TEST_PASSWORD,
    }),
    expect: signedIn(200),
  },
  // The matrix sends no image: a signed-in member is told so, and no one else gets that far.
  "PUT /api/user/photo": { expect: signedIn(400) },
  "DELETE /api/user/photo": { expect: signedIn(200) },
  // The scene's members have no photo.
  "GET /api/users/{username}/photo/{file}": {
    url: (s) => `/api/users/${s.owner.username}/photo/0123456789abcdef.webp`,
    expect: everyone(404),
  },
  "POST /api/user/website/check": {
    expect: { anonymous: 401, member: 400, owner: 200, admin: 400 },
  },
  "PUT /api/user/password": {
    body: () => ({ currentPassword: TEST_PASSWORD, password: "a-new-secret" }),
    expect: signedIn(200),
  },
  "POST /api/user/google": { body: reauth, expect: signedIn(204) },
  "DELETE /api/user/google": { body: reauth, expect: signedIn(200) },
  "DELETE /api/user/account": { body: reauth, expect: signedIn(204) },
  "POST /api/prisms": { body: prismBody, expect: signedIn(201) },
  "GET /api/prisms/{username}": {
    url: (s) => `/api/prisms/${s.owner.username}`,
    expect: everyone(200),
  },
  "GET /og/{username}.png": {
    url: (s) => `/og/${s.owner.username}.png`,
    expect: everyone(200),
  },
  "GET /og/{username}/{prismId}.png": {
    url: (s) => `/og/${s.owner.username}/${s.prism.id}.png`,
    expect: everyone(200),
  },
  "GET /{username}/feed.atom": {
    url: (s) => `/${s.owner.username}/feed.atom`,
    expect: everyone(200),
  },
  "GET /{username}/feed.json": {
    url: (s) => `/${s.owner.username}/feed.json`,
    expect: everyone(200),
  },
  "GET /oembed": {
    url: (s) => `/oembed?url=${encodeURIComponent(`${TEST_ORIGIN}/${s.owner.username}`)}`,
    expect: everyone(200),
  },
  "GET /embed/{username}": {
    url: (s) => `/embed/${s.owner.username}`,
    expect: everyone(200),
  },
  "GET /embed/{username}/{prismId}": {
    url: (s) => `/embed/${s.owner.username}/${s.prism.id}`,
    expect: everyone(200),
  },
  // The scene's response is pending: no embed shows it, to anyone.
  "GET /embed/{username}/{prismId}/{annotationId}": {
    url: (s) => `/embed/${s.owner.username}/${s.prism.id}/${s.annotation.id}`,
    expect: everyone(404),
  },
  "PUT /api/prisms/{id}": {
    url: (s) => `/api/prisms/${s.prism.id}`,
    body: prismBody,
    expect: ownerOnly(200),
  },
  "DELETE /api/prisms/{id}": { url: (s) => `/api/prisms/${s.prism.id}`, expect: ownerOnly(204) },
  "PUT /api/prisms/{id}/move": {
    url: (s) => `/api/prisms/${s.prism.id}/move`,
    body: () => ({ direction: "down" }),
    expect: ownerOnly(200),
  },
  "PUT /api/prisms/{id}/responders": {
    url: (s) => `/api/prisms/${s.prism.id}/responders`,
    body: () => ({ responders: "members" }),
    expect: ownerOnly(200),
  },
  "GET /api/user/export": { expect: signedIn(200) },
  "GET /api/prisms/{id}/revisions": {
    url: (s) => `/api/prisms/${s.prism.id}/revisions`,
    expect: { anonymous: 404, member: 404, owner: 200, admin: 200 },
  },
  "GET /api/prisms/{id}/revisions/{number}": {
    url: (s) => `/api/prisms/${s.prism.id}/revisions/1`,
    expect: { anonymous: 404, member: 404, owner: 200, admin: 200 },
  },
  "POST /api/prisms/{id}/revisions/{number}/restore": {
    url: (s) => `/api/prisms/${s.prism.id}/revisions/1/restore`,
    expect: { anonymous: 401, member: 404, owner: 200, admin: 200 },
  },
  // The resonance map is its owner's and admins'; other members are told so.
  "GET /api/prisms/{id}/resonance": {
    url: (s) => `/api/prisms/${s.prism.id}/resonance`,
    expect: { anonymous: 401, member: 403, owner: 200, admin: 200 },
  },
  // Any page may say what it showed; what counts is decided inside (never the owner's own).
  "POST /api/prisms/views": {
    body: (s) => ({ prismIds: [s.prism.id] }),
    expect: everyone(204),
  },
  "GET /api/user/this-week": { expect: signedIn(200) },
  "GET /api/prisms/{prismId}/heart": {
    url: (s) => `/api/prisms/${s.prism.id}/heart`,
    expect: everyone(200),
  },
  "POST /api/prisms/{prismId}/heart": {
    url: (s) => `/api/prisms/${s.prism.id}/heart`,
    expect: everyone(200),
  },
  "GET /api/prisms/{prismId}/annotations": {
    url: (s) => `/api/prisms/${s.prism.id}/annotations`,
    expect: everyone(200),
  },
  // Without an account a response must carry a solved challenge, which this body has not.
  "POST /api/annotations": {
    body: (s) => ({
      prismId: s.prism.id,
      selectedText: "Mornings",
      annotationText: "Same here",
      selectionStart: 0,
      selectionEnd: 8,
    }),
    expect: { anonymous: 400, member: 201, owner: 201, admin: 201 },
  },
  "GET /api/challenge": { expect: everyone(200) },
  // A pending annotation by someone else: only the prism's owner and admins may see or decide it.
  "GET /api/annotations/{id}": {
    url: (s) => `/api/annotations/${s.annotation.id}`,
    expect: { anonymous: 404, member: 404, owner: 200, admin: 200 },
  },
  "PUT /api/annotations/{id}/status": {
    url: (s) => `/api/annotations/${s.annotation.id}/status`,
    body: () => ({ status: "approved" }),
    expect: { anonymous: 401, member: 404, owner: 200, admin: 200 },
  },
  // Every member has a review queue of their own (empty but for the owner's).
  "GET /api/annotations/review": { expect: signedIn(200) },
  // Only the prism's owner decides in bulk; an admin sees the response but decides one at a time.
  "POST /api/annotations/bulk": {
    body: (s) => ({ ids: [s.annotation.id], action: "approve" }),
    expect: { anonymous: 401, member: 404, owner: 200, admin: 403 },
  },
  // Only the prism's owner replies; an admin sees the response but may not answer for the owner.
  "PUT /api/annotations/{id}/reply": {
    url: (s) => `/api/annotations/${s.annotation.id}/reply`,
    body: () => ({ text: "Thank you." }),
    expect: { anonymous: 401, member: 404, owner: 200, admin: 403 },
  },
  "DELETE /api/annotations/{id}/reply": {
    url: (s) => `/api/annotations/${s.annotation.id}/reply`,
    expect: { anonymous: 401, member: 404, owner: 204, admin: 403 },
  },
  // Whoever holds the status link reads it, signed in or not.
  "GET /api/responses/{token}": {
    url: (s) => `/api/responses/${s.statusToken}`,
    expect: everyone(200),
  },
  "PUT /api/prisms/0/annotations/{id}/status": {
    url: (s) => `/api/prisms/0/annotations/${s.annotation.id}/status`,
    body: () => ({ status: "rejected" }),
    expect: adminOnly(200),
  },
  "GET /api/notifications": { expect: signedIn(200) },
  "GET /api/notifications/unread-count": { expect: signedIn(200) },
  "POST /api/notifications/read-all": { expect: signedIn(200) },
  // Someone else's notification is not found, not forbidden: its existence is not revealed.
  "POST /api/notifications/{id}/read": {
    url: (s) => `/api/notifications/${s.notification.id}/read`,
    expect: ownerOnly(200, 404),
  },
  "DELETE /api/notifications/{id}": {
    url: (s) => `/api/notifications/${s.notification.id}`,
    expect: ownerOnly(204, 404),
  },
  "POST /api/password-reset/request": {
    body: (s) => ({ login: s.owner.username }),
    expect: everyone(202),
  },
  "POST /api/password-reset/confirm": {
    body: (s) => ({ token: s.resetToken, password: "a-new-secret" }),
    expect: everyone(200),
  },
  // The token is the app's HMAC of a member's id, which the matrix cannot make: any caller with
  // another gets the same 404, session or not.
  "POST /api/email/unsubscribe": {
    url: () => "/api/email/unsubscribe?token=1.not-a-token",
    expect: everyone(404),
  },
  // This server cannot send e-mail: the admin is told that nothing was sent.
  "POST /api/analytics/users/{id}/reset-password": {
    url: (s) => `/api/analytics/users/${s.owner.id}/reset-password`,
    expect: adminOnly(409),
  },
  // Catalyst: admins only; a member is told 403 whatever the target.
  "GET /api/analytics/stats": { expect: adminOnly(200) },
  "GET /api/analytics/activity": { expect: adminOnly(200) },
  "GET /api/analytics/users": { expect: adminOnly(200) },
  "GET /api/analytics/prisms": { expect: adminOnly(200) },
  "GET /api/analytics/annotations": { expect: adminOnly(200) },
  "GET /api/analytics/audit": { expect: adminOnly(200) },
  "GET /api/analytics/contact-messages": { expect: adminOnly(200) },
  // Reports other servers sent; the scene has none to dismiss.
  "GET /api/analytics/reports": { expect: adminOnly(200) },
  "PUT /api/analytics/reports/{id}/dismiss": {
    url: () => "/api/analytics/reports/999999/dismiss",
    expect: adminOnly(404),
  },
  "PUT /api/analytics/users/{id}/admin": {
    url: (s) => `/api/analytics/users/${s.owner.id}/admin`,
    body: () => ({ isAdmin: true }),
    expect: adminOnly(200),
  },
  "PUT /api/analytics/users/{id}/deactivate": {
    url: (s) => `/api/analytics/users/${s.owner.id}/deactivate`,
    expect: adminOnly(200),
  },
  "PUT /api/analytics/users/{id}/reactivate": {
    url: (s) => `/api/analytics/users/${s.owner.id}/reactivate`,
    expect: adminOnly(200),
  },
  "PUT /api/analytics/users/{id}/silence": {
    url: (s) => `/api/analytics/users/${s.owner.id}/silence`,
    body: () => ({ silenced: true }),
    expect: adminOnly(200),
  },
  "DELETE /api/analytics/prisms/{id}": {
    url: (s) => `/api/analytics/prisms/${s.prism.id}`,
    expect: adminOnly(204),
  },
  "GET /api/analytics/teams": { expect: adminOnly(200) },
  "GET /api/analytics/federation": { expect: adminOnly(200) },
  "PUT /api/analytics/federation/domains/{domain}": {
    url: () => "/api/analytics/federation/domains/matrix.example",
    body: () => ({ policy: "limited" }),
    expect: adminOnly(200),
  },
  "DELETE /api/analytics/teams/{id}": {
    url: (s) => `/api/analytics/teams/${s.team.id}`,
    expect: adminOnly(204),
  },
  "DELETE /api/analytics/annotations/{id}": {
    url: (s) => `/api/analytics/annotations/${s.annotation.id}`,
    expect: adminOnly(204),
  },
  "POST /api/contact": {
    body: () => ({ name: "Ada", email: "ada@example.com", subject: "Hi", message: "Hello, team!" }),
    expect: everyone(201),
  },
  "GET /api/explore/users": { expect: everyone(200) },
  "GET /api/explore/prisms": { expect: everyone(200) },
  "GET /api/events": { expect: everyone(200) },
  // Teams: the owner runs the scene's team, the member belongs to it, the admin is not in it
  // (a team answers 404 to anyone outside it, admins too); a member is told 403.
  "POST /api/teams": { body: () => ({ name: "Matrix team" }), expect: signedIn(201) },
  "GET /api/teams": { expect: signedIn(200) },
  "GET /api/teams/{slug}": {
    url: (s) => `/api/teams/${s.team.slug}`,
    expect: { anonymous: 401, member: 200, owner: 200, admin: 404 },
  },
  "POST /api/teams/{slug}/seen": {
    url: (s) => `/api/teams/${s.team.slug}/seen`,
    expect: { anonymous: 401, member: 204, owner: 204, admin: 404 },
  },
  "PUT /api/teams/{slug}": {
    url: (s) => `/api/teams/${s.team.slug}`,
    body: () => ({ name: "Renamed" }),
    expect: ownerOnly(200, 403, 404),
  },
  "DELETE /api/teams/{slug}": {
    url: (s) => `/api/teams/${s.team.slug}`,
    expect: ownerOnly(204, 403, 404),
  },
  "GET /api/teams/{slug}/invites": {
    url: (s) => `/api/teams/${s.team.slug}/invites`,
    expect: ownerOnly(200, 403, 404),
  },
  "POST /api/teams/{slug}/invites": {
    url: (s) => `/api/teams/${s.team.slug}/invites`,
    expect: ownerOnly(201, 403, 404),
  },
  "DELETE /api/teams/{slug}/invites/{id}": {
    url: (s) => `/api/teams/${s.team.slug}/invites/${s.invite.id}`,
    expect: ownerOnly(204, 403, 404),
  },
  // The member removes themselves (leaves); the owner removes them.
  "DELETE /api/teams/{slug}/members/{username}": {
    url: (s) => `/api/teams/${s.team.slug}/members/${s.member.username}`,
    expect: { anonymous: 401, member: 204, owner: 204, admin: 404 },
  },
  // Already in the team, the member and owner stay as they are; the admin joins.
  "POST /api/invites/{token}": {
    url: (s) => `/api/invites/${s.inviteToken}`,
    expect: signedIn(200),
  },
  "GET /auth/google": { expect: everyone(302) },
  "GET /auth/google/callback": { expect: everyone(302) },
};

/** Every route the app documents, as "METHOD /path/{param}". */
export function registeredRoutes(app: App): string[] {
  const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => ["get", "post", "put", "delete", "patch"].includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}
