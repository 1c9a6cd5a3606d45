// What the explore page reads: members with their first prism, and popular prisms. The same for
// everyone, tagged by the versions of the lists, so the conditional hook answers them from memory.
import { exploreExcerpt, previewOf } from "../../../contract/excerpt.ts";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import type { PageQuery } from "../../../contract/paging.ts";
import type { AppDeps } from "../../deps.ts";
import type { Answer } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import { presentExploreMember } from "../users/presenter.ts";
import { Anchors } from "./anchors.ts";
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
    /** The tag of the members list, every page of it. */
    membersEtag: () => versions.etag(versionKeys.exploreMembers(), activity()),

    /** Members with their first prism (title and excerpt), most recently active first. */
    async members(page: PageQuery): Promise<Answer<ExploreUser[]>> {
      const tag = `${versions.tag([versionKeys.exploreMembers()])} ${activity()}`;
      const rows = await anchored(memberAnchors, tag, page, (from) =>
        listExploreUsers(db, page, from),
      );
      return {
        value: rows.map(({ user, firstPrism }) => ({
          user: presentExploreMember(user),
          firstPrism: {
            title: firstPrism.title,
            content: previewOf(firstPrism.content, exploreExcerpt.people),
          },
        })),
      };
    },

    /** The tag of the prisms list, every page of it. */
    prismsEtag: () => versions.etag(versionKeys.explorePrisms()),

    /** Prisms (title and excerpt) with their authors, most hearts first, then newest. */
    async prisms(page: PageQuery): Promise<Answer<ExplorePrism[]>> {
      const tag = versions.tag([versionKeys.explorePrisms()]);
      const rows = await anchored(prismAnchors, tag, page, (from) =>
        listExplorePrisms(db, page, from),
      );
      return {
        value: rows.map(({ user, prism }) => ({
          user: presentExploreMember(user),
          prism: {
            id: prism.id,
            title: prism.title,
            content: previewOf(prism.content, exploreExcerpt.prisms),
            heartsCount: prism.heartsCount,
          },
        })),
      };
    },
  };
}
