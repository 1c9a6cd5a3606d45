// What a member's page reads of their prisms: the same for everyone, tagged by the version of
// the member's prisms and their hearts, so the conditional hook answers it from memory.
import type { Prism } from "../../../contract/prisms.ts";
import type { AppDeps } from "../../deps.ts";
import { notFound } from "../../http-error.ts";
import type { Answer } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import { findActiveUser } from "../users/service.ts";
import { presentPrism } from "./presenter.ts";
import { listPrisms } from "./service.ts";

export function prismReads({ db, versions }: Pick<AppDeps, "db" | "versions">) {
  return {
    /** The tag of a member's prism list. */
    listEtag: (username: string) => versions.etag(versionKeys.prismList(username)),

    /** A member's prisms, in order. */
    async list(username: string): Promise<Answer<Prism[]>> {
      const owner = await findActiveUser(db, username);
      if (!owner) throw notFound("User not found");
      return { value: (await listPrisms(db, owner.id)).map(presentPrism) };
    },
  };
}
