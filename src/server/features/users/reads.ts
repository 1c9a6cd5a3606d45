// What a member's page reads of their profile: the same for everyone, tagged by the version of
// the profile, so the conditional hook answers it from memory.
import type { PublicUser } from "../../../contract/user.ts";
import type { AppDeps } from "../../deps.ts";
import { notFound } from "../../http-error.ts";
import type { Answer } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import { presentPublicUser } from "./presenter.ts";
import { findActiveUser } from "./service.ts";

export function userReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  return {
    /** The tag of a member's public profile. */
    profileEtag: (username: string) => versions.etag(versionKeys.profile(username)),

    /** A member's public profile. */
    async profile(username: string): Promise<Answer<PublicUser>> {
      const user = await findActiveUser(db, username);
      if (!user) throw notFound("User not found");
      return { value: presentPublicUser(user) };
    },
  };
}
