// What the explore page reads: members with their first prism, and popular prisms. The same for
// everyone, tagged by the versions of the lists, so the conditional hook answers them from memory.
import { type PageQuery, pageQuerySchema } from "../../../contract/paging.ts";
import { defineRead } from "../../cache/cached-read.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { Anchors } from "./anchors.ts";
import { presentExplorePrism, presentExploreUser } from "./presenter.ts";
import {
  type Anchor,
  listExplorePrisms,
  listExploreUsers,
  type MemberKey,
  type PrismKey,
} from "./service.ts";

/**
 * Members' activity (a sign-in, a visit) reorders the members list without an event: an answer to
 * it is kept at most this long. Prisms and profiles move both lists' versions at once, hearts the
 * prisms list's only (the members list shows no counts).
 */
const ACTIVITY_WINDOW_MS = 10_000;

/**
 * A page this deep starts from the nearest row whose place the process has learned, in the same
 * version of the list (a deep page teaches its first row's); a shallower one skips from the top,
 * which costs as little. Members' activity moves no version: within its window, a deep page may
 * start from a row placed by an earlier read, as a kept answer of the same tag was read then.
 */
const ANCHORED_FROM = 1000;

export function exploreReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  const activity = () => `activity ${Math.floor(Date.now() / ACTIVITY_WINDOW_MS)}`;
  const memberAnchors = new Anchors<MemberKey>();
  const prismAnchors = new Anchors<PrismKey>();

  /** A page read by `list`, from a known row when it is deep; its first row is then known too. */
  async function anchored<Key, Row extends { key: Key }>(
    anchors: Anchors<Key>,
    tag: string,
    page: PageQuery,
    list: (from?: Anchor<Key>) => Promise<Row[]>,
  ): Promise<Row[]> {
    if (page.offset < ANCHORED_FROM) return list();
    const stamp = versions.stamp();
    const rows = await list(anchors.before(tag, page.offset));
    // Learned only when no change was announced meanwhile: the rows are of the version `tag`.
    if (rows[0] && versions.stamp() === stamp) {
      anchors.learn(tag, { position: page.offset, key: rows[0].key });
    }
    return rows;
  }

  return {
    /** Members with their first prism (title and excerpt), most recently active first. */
    members: defineRead({
      for: "everyone",
      querystring: pageQuerySchema,
      etag: () => versions.etag(versionKeys.exploreMembers(), activity()),
      async read(page) {
        const tag = `${versions.tag([versionKeys.exploreMembers()])} ${activity()}`;
        const rows = await anchored(memberAnchors, tag, page, (from) =>
          listExploreUsers(db, page, from),
        );
        return { value: rows.map(presentExploreUser) };
      },
    }),

    /** Prisms (title and excerpt) with their authors, most hearts first, then newest. */
    prisms: defineRead({
      for: "everyone",
      querystring: pageQuerySchema,
      etag: () => versions.etag(versionKeys.explorePrisms()),
      async read(page) {
        const tag = versions.tag([versionKeys.explorePrisms()]);
        const rows = await anchored(prismAnchors, tag, page, (from) =>
          listExplorePrisms(db, page, from),
        );
        return { value: rows.map(presentExplorePrism) };
      },
    }),
  };
}
