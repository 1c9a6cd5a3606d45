// The one way explore's entries leave the server: a member with the plain-text excerpt of their
// first prism, or a prism's excerpt with its author.
import { exploreExcerpt, previewOf } from "../../../contract/excerpt.ts";
import type { ExplorePrism, ExploreUser } from "../../../contract/explore.ts";
import { presentExploreMember } from "../users/presenter.ts";
import type { ExplorePrismRow, ExploreUserRow } from "./service.ts";

export function presentExploreUser({ user, firstPrism }: ExploreUserRow): ExploreUser {
  return {
    user: presentExploreMember(user),
    firstPrism: {
      title: firstPrism.title,
      content: previewOf(firstPrism.content, exploreExcerpt.people),
    },
  };
}

export function presentExplorePrism({ user, prism }: ExplorePrismRow): ExplorePrism {
  return {
    user: presentExploreMember(user),
    prism: {
      id: prism.id,
      title: prism.title,
      content: previewOf(prism.content, exploreExcerpt.prisms),
      heartsCount: prism.heartsCount,
    },
  };
}
