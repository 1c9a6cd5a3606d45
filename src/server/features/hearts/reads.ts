// What pages read of hearts, from memory: each prism's count (and owner), and each participant's
// own heart, kept while the prism's hearts and its owner's prisms stay as they were read.
import type { HeartStatus } from "../../../contract/prisms.ts";
import { participantKey } from "../../actors.ts";
import type { AppDeps } from "../../deps.ts";
import { type Answer, Memo } from "../../live/memo.ts";
import { versionKeys } from "../../live/versions.ts";
import type { ParticipantAsking } from "../../plugins/visitor.ts";
import { hasHearted, heartCount } from "./service.ts";

export function heartReads({ db, bus, versions }: Pick<AppDeps, "db" | "bus" | "versions">) {
  const counts = new Memo<number, { heartsCount: number; owner: string }>(versions, bus, {
    name: "heart-counts",
    maxSize: 50_000,
    sizeOf: () => 1,
  });
  const ownHearts = new Memo<string, boolean>(versions, bus, {
    name: "own-hearts",
    maxSize: 200_000,
    sizeOf: () => 1,
  });

  return {
    /** The tag of a prism's heart status for these cookies, while memory knows it. */
    statusEtag(prismId: number, cookies: string): string | undefined {
      const keys = counts.current(prismId)?.keys;
      return keys && versions.etag(keys, cookies);
    },

    /**
     * A prism's heart count and whether the asker hearted it. The asker is asked for once the
     * prism is found, so that a browser new to Prism is given its cookie only then.
     */
    async status(prismId: number, askerOf: () => ParticipantAsking): Promise<Answer<HeartStatus>> {
      const prism = await counts.get(prismId, async () => {
        const value = await heartCount(db, prismId);
        return { value, keys: [versionKeys.heart(prismId), versionKeys.ownedPrisms(value.owner)] };
      });
      const { participant, cookies } = askerOf();
      const hearted = await ownHearts.get(
        `${prismId} ${participantKey(participant)}`,
        async () => ({
          value: await hasHearted(db, prismId, participant),
          keys: [versionKeys.heart(prismId)],
        }),
      );
      return {
        value: { hearted: hearted.value, heartsCount: prism.value.heartsCount },
        // Tagged as the count was read: a heart since then makes the tag only older.
        etag: () => prism.keys && versions.etag(prism.keys, cookies, prism.tag),
      };
    },
  };
}
