// What a member's page reads of their prisms: the same for everyone, tagged by the version of
// the member's prisms and their hearts, so the conditional hook answers it from memory.
import { z } from "zod";
import { usernameParam } from "../../../contract/user.ts";
import { defineRead } from "../../cache/cached-read.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { getActiveUser } from "../users/service.ts";
import { presentPrism } from "./presenter.ts";
import { listPrisms } from "./service.ts";

export function prismReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  return {
    /** A member's prisms, in order. */
    list: defineRead({
      for: "everyone",
      params: z.object({ username: usernameParam }),
      etag: ({ username }) => versions.etag(versionKeys.prismList(username)),
      async read({ username }) {
        const owner = await getActiveUser(db, username);
        return { value: (await listPrisms(db, owner.id)).map(presentPrism) };
      },
    }),
  };
}
