// What the explore page reads: members with their first prism, and popular prisms. The same for
// everyone, tagged by the versions of the lists, so the conditional hook answers them from memory.
import { exploreExcerpt, previewOf } from "../../../contract/excerpt.ts";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import type { PageQuery } from "../../../contract/paging.ts";
import type { AppDeps } from "../../app.ts";
import type { Answer } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import { presentExploreMember } from "../users/presenter.ts";
import { listExplorePrisms, listExploreUsers } from "./service.ts";

/**
 * Members' activity (a sign-in, a visit) reorders the members list without an event: an answer to
 * it is kept at most this long. Prisms and profiles move both lists' versions at once, hearts the
 * prisms list's only (the members list shows no counts).
 */
const ACTIVITY_WINDOW_MS = 10_000;

export function exploreReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  return {
    /** The tag of the members list, every page of it. */
    membersEtag: () =>
      versions.etag(
        versionKeys.exploreMembers(),
        `activity ${Math.floor(Date.now() / ACTIVITY_WINDOW_MS)}`,
      ),

    /** Members with their first prism (title and excerpt), most recently active first. */
    async members(page: PageQuery): Promise<Answer<ExploreUser[]>> {
      const rows = await listExploreUsers(db, page);
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
      const rows = await listExplorePrisms(db, page);
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
