// What pages read of hearts, from memory: each prism's count (and owner), and each participant's
// own heart, kept while the prism's hearts and its owner's prisms stay as they were read.
import { z } from "zod";
import { idParam } from "../../../contract/paging.ts";
import { participantKey } from "../../actors.ts";
import { defineRead } from "../../cache/cached-read.ts";
import { Memo } from "../../cache/memo.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { notFound } from "../../http-error.ts";
import { maySeePrism, seesPrismAtOnce } from "../../policy.ts";
import { type HeartCount, hasHearted, heartCount } from "./service.ts";

/** The prism as its audience rule reads it. */
const prismOf = (count: HeartCount) => ({ userId: count.ownerId, audience: count.audience });

export function heartReads({ db, bus, versions }: Pick<AppDeps, "db" | "bus" | "versions">) {
  const counts = new Memo<number, HeartCount>(versions, bus, {
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
    /**
     * A prism's heart count and whether the asker hearted it. The asker's participant is asked
     * for once the prism is found, so that a browser new to Prism is given its cookie only then.
     */
    status: defineRead({
      for: "viewer",
      params: z.object({ prismId: idParam }),
      etag({ prismId }, asker) {
        // Memory tags only what it knows the asker may see: else the read decides (and 404s).
        const kept = counts.current(prismId);
        if (!kept || seesPrismAtOnce(asker.viewer.user, prismOf(kept.value)) !== true) return;
        return versions.etag(kept.keys, asker.cookies);
      },
      async read({ prismId }, asker) {
        const prism = await counts.get(prismId, async () => {
          const value = await heartCount(db, prismId);
          return {
            value,
            keys: [
              versionKeys.heart(prismId),
              versionKeys.prism(prismId),
              versionKeys.profile(value.owner),
            ],
          };
        });
        if (!(await maySeePrism(db, asker.viewer.user, prismOf(prism.value)))) {
          throw notFound("Prism not found");
        }
        // A browser new to Prism has hearted nothing: its own heart is not looked for (nor kept).
        // Asked before its participant, which gives it its id.
        const newBrowser = asker.newBrowser;
        const { participant } = asker;
        const hearted = newBrowser
          ? { value: false }
          : await ownHearts.get(`${prismId} ${participantKey(participant)}`, async () => ({
              value: await hasHearted(db, prismId, participant),
              keys: [versionKeys.heart(prismId)],
            }));
        // Tagged as the count was read (a heart since then makes the tag only older), naming the
        // asker by their cookies once they have them all.
        const { cookies } = asker;
        return {
          value: { hearted: hearted.value, heartsCount: prism.value.heartsCount },
          etag: () => prism.keys && versions.etag(prism.keys, cookies, prism.tag),
        };
      },
    }),
  };
}
