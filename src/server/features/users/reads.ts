// What a member's page reads of their profile: the same for everyone, tagged by the version of
// the profile, so the conditional hook answers it from memory.
import { z } from "zod";
import { usernameParam } from "../../../contract/user.ts";
import { defineRead } from "../../cache/cached-read.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { presentPublicUser } from "./presenter.ts";
import { getActiveUser } from "./service.ts";

export function userReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  return {
    /** A member's public profile. */
    profile: defineRead({
      for: "everyone",
      params: z.object({ username: usernameParam }),
      etag: ({ username }) => versions.etag(versionKeys.profile(username)),
      async read({ username }) {
        const user = await getActiveUser(db, username);
        return { value: presentPublicUser(user) };
      },
    }),
  };
}
