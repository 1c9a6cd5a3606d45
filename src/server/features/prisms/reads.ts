// What a member's page reads of their prisms, from memory: the member's prisms of every audience,
// kept while none of them changed; each asker is answered the ones they may see, and tagged by
// that answer itself, so that a change to a prism they may not see leaves their tag as it was.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Prism } from "../../../contract/prisms.ts";
import { prismSchema } from "../../../contract/prisms.ts";
import { usernameParam } from "../../../contract/user.ts";
import { defineRead } from "../../cache/cached-read.ts";
import { Memo } from "../../cache/memo.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import type { Asker, Looker } from "../../plugins/visitor.ts";
import { maySeePrism, seesPrismAtOnce } from "../../policy.ts";
import { jsonWriter } from "../../serializer.ts";
import { getActiveUser } from "../users/service.ts";
import { presentPrism } from "./presenter.ts";
import { listPrisms } from "./service.ts";

const writeList = jsonWriter(z.array(prismSchema));

/** An answer as written, and a digest of it that tags it (computed once, not per request). */
interface Written {
  text: string;
  digest: string;
}

const written = (text: string): Written => ({
  text,
  digest: createHash("sha256").update(text).digest("base64url"),
});

interface OwnersPrisms {
  ownerId: number;
  prisms: Prism[];
  /** The answers of those who see all of them, and of those who see the public ones, once written. */
  answers: Partial<Record<"all" | "public", Written>>;
}

/** The prisms the asker may see, numbered in the order they see them (no gap tells of another). */
const shown = (prisms: Prism[]): Prism[] => prisms.map((prism, index) => ({ ...prism, index }));

/** Which answer the asker sees, when it is one of the two every page shares; else undefined. */
function sharedAnswerOf(asker: Looker, list: OwnersPrisms): "all" | "public" | undefined {
  const seen = list.prisms.map((prism) =>
    seesPrismAtOnce(asker.viewer.user, { userId: list.ownerId, audience: prism.audience }),
  );
  if (seen.every((sees) => sees === true)) return "all";
  const publicOnly = list.prisms.every(
    (prism, index) => seen[index] === (prism.audience === "public"),
  );
  return publicOnly ? "public" : undefined;
}

function writeShared(list: OwnersPrisms, which: "all" | "public"): Written {
  list.answers[which] ??= written(
    writeList(
      which === "all"
        ? list.prisms
        : shown(list.prisms.filter((prism) => prism.audience === "public")),
    ),
  );
  return list.answers[which];
}

export function prismReads({ db, bus, versions }: Pick<AppDeps, "db" | "bus" | "versions">) {
  const lists = new Memo<string, OwnersPrisms>(versions, bus, {
    name: "prism-lists",
    maxSize: 32 * 1024 * 1024,
    sizeOf: ({ prisms }) =>
      prisms.reduce((bytes, prism) => bytes + prism.title.length + prism.content.length + 300, 0),
  });

  return {
    /** A member's prisms that the asker may see, in order. */
    list: defineRead({
      for: "viewer",
      params: z.object({ username: usernameParam }),
      etag({ username }, asker) {
        const kept = lists.current(username.toLowerCase());
        const which = kept && sharedAnswerOf(asker, kept.value);
        return (
          kept && which && versions.answerEtag(writeShared(kept.value, which).digest, asker.cookies)
        );
      },
      async read({ username }, asker) {
        const { value: list } = await lists.get(username.toLowerCase(), async () => {
          const owner = await getActiveUser(db, username);
          const prisms = (await listPrisms(db, owner.id)).map(presentPrism);
          return {
            value: { ownerId: owner.id, prisms, answers: {} },
            keys: [versionKeys.prismList(owner.username), versionKeys.profile(owner.username)],
          };
        });
        const which = sharedAnswerOf(asker, list);
        const answer = which
          ? writeShared(list, which)
          : written(writeList(shown(await visibleOf(list, asker))));
        return {
          written: answer.text,
          etag: () => versions.answerEtag(answer.digest, asker.cookies),
        };
      },
    }),
  };

  /** The prisms a member who may share a team with their owner sees. */
  async function visibleOf(list: OwnersPrisms, asker: Asker): Promise<Prism[]> {
    const { user } = asker.viewer;
    const owner = { userId: list.ownerId, audience: "team" as const };
    const teammate = await maySeePrism(db, user, owner);
    return list.prisms.filter(
      (prism) => prism.audience === "public" || (teammate && prism.audience === "team"),
    );
  }
}
