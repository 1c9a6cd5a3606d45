// What a member and their prisms look like to the fediverse: the actor (`Person`), each prism an
// `Article`, and the activities that carry them to followers.
import type { Context, Federation } from "@fedify/fedify";
import {
  Accept,
  Article,
  Create,
  CryptographicKey,
  Delete,
  Endpoints,
  Follow,
  Image,
  InteractionPolicy,
  InteractionRule,
  Mention,
  Multikey,
  Note,
  Person,
  PropertyValue,
  PUBLIC_COLLECTION,
  Tombstone,
  Update,
} from "@fedify/fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { previewOf } from "../../../contract/excerpt.ts";
import { pagePath, prismLink } from "../../../contract/feeds.ts";
import { fullName, profileDescription } from "../../../contract/names.ts";
import type { AnnotationRow, PrismRow, UserRow } from "../../db/schema.ts";
import { escapeHtml } from "../../escape.ts";
import { sanitizeContent } from "../prisms/sanitize.ts";
import type { FederatedActor } from "./service.ts";

/** How long an Article's `summary` is, in characters: what a timeline shows before "more". */
const SUMMARY_LENGTH = 280;

/**
 * What a request Fedify answers carries: the members it read by id, with their actors, so that
 * Fedify's several asks for one actor while answering it (its key pairs, for the inbox's signed
 * fetches; the actor itself, that the inbox is someone's) read them once. What the queue handles,
 * and what Prism sends, carries nothing.
 */
export interface RequestData {
  actors: Map<number, Promise<FederatedActor | null>>;
}
export type PrismData = RequestData | undefined;

export type FederationContext = Context<PrismData>;
export type PrismFederation = Federation<PrismData>;

const instant = (date: Date) =>
  Temporal.Instant.fromEpochMilliseconds(date.getTime()) as unknown as globalThis.Temporal.Instant;

/** The actor's identifier in its URIs: the member's id, so that a new username keeps followers. */
export const identifierOf = (userId: number) => String(userId);

/** The member's profile links, each a `PropertyValue` whose link says rel="me". */
function profileLinks(member: UserRow): PropertyValue[] {
  const links: [string, string | null][] = [
    ["Website", member.websiteUrl],
    ["Twitter", member.twitterUrl],
    ["LinkedIn", member.linkedinUrl],
  ];
  return links.flatMap(([name, url]) =>
    url
      ? [
          new PropertyValue({
            name,
            value: `<a href="${escapeHtml(url)}" rel="me nofollow noopener noreferrer" target="_blank">${escapeHtml(url.replace(/^https?:\/\//, ""))}</a>`,
          }),
        ]
      : [],
  );
}

/** The member as an ActivityPub actor. */
export function personOf(
  ctx: FederationContext,
  member: UserRow,
  publicKey: CryptoKey | null,
  firstTitle: string | null,
  prismCount: number,
): Person {
  const identifier = identifierOf(member.id);
  const id = ctx.getActorUri(identifier);
  return new Person({
    id,
    preferredUsername: member.username,
    name: fullName(member),
    summary: escapeHtml(profileDescription(member, firstTitle, prismCount)),
    url: new URL(pagePath(member.username), ctx.origin),
    icon: member.profileImageUrl
      ? new Image({ url: new URL(member.profileImageUrl, ctx.origin) })
      : null,
    published: instant(member.createdAt),
    inbox: ctx.getInboxUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    manuallyApprovesFollowers: member.approveFollowers,
    discoverable: true,
    indexable: true,
    // As Fedify's getActorKeyPairs names an actor's first key, in both of its forms.
    publicKey:
      publicKey && new CryptographicKey({ id: new URL("#main-key", id), owner: id, publicKey }),
    assertionMethods: publicKey
      ? [new Multikey({ id: new URL("#multikey-1", id), controller: id, publicKey })]
      : [],
    attachments: profileLinks(member),
  });
}

/** A follower's `Follow` of `actor`, as Prism kept it. */
export function followOf(actor: URL, follower: { followId: string; actorId: string }): Follow {
  return new Follow({
    id: new URL(follower.followId),
    actor: new URL(follower.actorId),
    object: actor,
  });
}

/** `actor` accepts a follow of theirs: the follower's server then shows them as following. */
export function followAcceptance(actor: URL, follow: Follow): Accept {
  return new Accept({
    id: new URL(`${actor.href}#accept-${encodeURIComponent(follow.id?.href ?? "")}`),
    actor,
    object: follow,
  });
}

export const articleUri = (ctx: FederationContext, prismId: number) =>
  ctx.getObjectUri(Article, { id: String(prismId) });

/** A prism as an `Article`: its title, its sanitized text, a summary and its deep link. */
export function articleOf(ctx: FederationContext, owner: UserRow, prism: PrismRow): Article {
  const actor = ctx.getActorUri(identifierOf(owner.id));
  const content = sanitizeContent(prism.content);
  return new Article({
    id: articleUri(ctx, prism.id),
    attribution: actor,
    name: prism.title,
    content,
    summary: previewOf(content, SUMMARY_LENGTH),
    url: new URL(prismLink(owner.username, prism.id), ctx.origin),
    published: instant(prism.createdAt),
    updated: prism.revision > 1 ? instant(prism.updatedAt) : null,
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(identifierOf(owner.id)),
    // Responses are Prism's own and wait for the owner's approval: so do replies.
    interactionPolicy: new InteractionPolicy({
      canReply: new InteractionRule({ manualApproval: PUBLIC_COLLECTION }),
    }),
  });
}

/**
 * The owner's `Create` of an object the first time it is sent, `Update` after: its id is the
 * object's, told apart by the kind and the moment `at` (epoch milliseconds).
 */
function ownerActivity(
  ctx: FederationContext,
  owner: UserRow,
  kind: "create" | "update",
  object: Article | Note,
  at: number,
  audience: Pick<ConstructorParameters<typeof Create>[0], "to" | "cc" | "published">,
): Create | Update {
  const values = {
    id: new URL(`${object.id?.href}#${kind}-${at}`),
    actor: ctx.getActorUri(identifierOf(owner.id)),
    ...audience,
    object,
  };
  return kind === "create" ? new Create(values) : new Update(values);
}

/** The activity that brings a prism to followers: `Create` the first time, `Update` after. */
export function prismActivity(
  ctx: FederationContext,
  owner: UserRow,
  prism: PrismRow,
  kind: "create" | "update",
): Create | Update {
  return ownerActivity(ctx, owner, kind, articleOf(ctx, owner, prism), prism.updatedAt.getTime(), {
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(identifierOf(owner.id)),
    published: instant(prism.updatedAt),
  });
}

/** The activity that takes a prism away from followers. */
export function prismDeletion(ctx: FederationContext, userId: number, prismId: number): Delete {
  const id = articleUri(ctx, prismId);
  return new Delete({
    id: new URL(`${id.href}#delete-${Date.now()}`),
    actor: ctx.getActorUri(identifierOf(userId)),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(identifierOf(userId)),
    object: new Tombstone({ id }),
  });
}

/** The activity that takes the actor itself away: federation turned off, or the account gone. */
export function actorDeletion(ctx: FederationContext, userId: number): Delete {
  const actor = ctx.getActorUri(identifierOf(userId));
  return new Delete({
    id: new URL(`${actor.href}#delete-${Date.now()}`),
    actor,
    to: PUBLIC_COLLECTION,
    object: actor,
  });
}

/**
 * The owner's reply to a fediverse reply, as a `Note` in reply to its note, addressed to its
 * author (mentioned, so that their server tells them) and public as it is on the prism's page.
 */
export function replyNoteOf(ctx: FederationContext, owner: UserRow, row: AnnotationRow): Note {
  const author = new URL(row.remoteActorId ?? "");
  const handle = row.remoteHandle ?? author.href;
  const mention = `<span class="h-card"><a href="${escapeHtml(author.href)}" class="u-url mention">${escapeHtml(handle)}</a></span>`;
  const text = escapeHtml(row.replyText ?? "").replace(/\n/g, "<br>");
  return new Note({
    id: ctx.getObjectUri(Note, { id: String(row.id) }),
    attribution: ctx.getActorUri(identifierOf(owner.id)),
    replyTarget: row.remoteNoteId ? new URL(row.remoteNoteId) : null,
    content: `<p>${mention} ${text}</p>`,
    url: new URL(prismLink(owner.username, row.prismId), ctx.origin),
    published: instant(row.repliedAt ?? row.createdAt),
    updated: row.replyUpdatedAt ? instant(row.replyUpdatedAt) : null,
    to: author,
    cc: PUBLIC_COLLECTION,
    tags: [new Mention({ href: author, name: handle })],
  });
}

/** The reply's activity: `Create` the first time it is sent, `Update` when it was rewritten. */
export function replyActivity(
  ctx: FederationContext,
  owner: UserRow,
  row: AnnotationRow,
  kind: "create" | "update",
): Create | Update {
  const note = replyNoteOf(ctx, owner, row);
  return ownerActivity(ctx, owner, kind, note, Date.now(), {
    to: note.toId,
    cc: PUBLIC_COLLECTION,
  });
}
