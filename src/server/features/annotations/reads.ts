// What pages read of annotations, from memory: each prism's annotations of every status, kept
// while none of them, the prism or their authors' names changed; each viewer's answer is made
// from them, and the answer for everyone who is not signed in is written once.
import { z } from "zod";
import { type Annotation, annotationSchema } from "../../../contract/annotations.ts";
import type { Audience } from "../../../contract/audiences.ts";
import { idParam } from "../../../contract/paging.ts";
import type { Viewer } from "../../actors.ts";
import { type Answer, defineRead, type WrittenAnswer } from "../../cache/cached-read.ts";
import { type Kept, Memo } from "../../cache/memo.ts";
import { versionKeys } from "../../cache/versions.ts";
import type { AppDeps } from "../../deps.ts";
import { notFound } from "../../http-error.ts";
import type { Looker } from "../../plugins/visitor.ts";
import { canSeeAnnotation, maySeePrism, seesPrismAtOnce } from "../../policy.ts";
import { jsonWriter } from "../../serializer.ts";
import { presentAnnotation } from "./presenter.ts";
import { type AnnotationView, prismAnnotations } from "./service.ts";

interface PrismAnnotations {
  ownerId: number;
  /** Who may see the prism, and so its annotations. */
  audience: Audience;
  views: AnnotationView[];
  /** The browsers that wrote some of them anonymously: those see them as their own. */
  visitorHashes: Set<string>;
  /** What everyone else who is not signed in sees, once written. */
  publicAnswer?: string;
}

const writeList = jsonWriter(z.array(annotationSchema));

/** The prism as its audience rule reads it. */
const prismOf = (list: PrismAnnotations) => ({ userId: list.ownerId, audience: list.audience });

/** The annotations the viewer may see, newest first, as they are shown to them. */
const visibleTo = (viewer: Viewer, list: PrismAnnotations): Annotation[] =>
  list.views
    .filter((view) => canSeeAnnotation(viewer, view.row, { userId: list.ownerId }))
    .map((view) => presentAnnotation(view, viewer));

/** Whether the asker is shown what everyone who is not signed in sees: not signed in, none written. */
const seesPublic = ({ viewer }: Looker, list: PrismAnnotations) =>
  viewer.user === null &&
  (viewer.visitorHash === null || !list.visitorHashes.has(viewer.visitorHash));

export function annotationReads({ db, bus, versions }: Pick<AppDeps, "db" | "bus" | "versions">) {
  const lists = new Memo<number, PrismAnnotations>(versions, bus, {
    name: "annotation-lists",
    maxSize: 16 * 1024 * 1024,
    sizeOf: ({ views }) =>
      views.reduce(
        (bytes, { row }) =>
          bytes +
          row.annotationText.length +
          row.selectedText.length +
          row.contextBefore.length +
          row.contextAfter.length +
          300,
        0,
      ),
  });

  /**
   * The asker's tag of a prism's annotations: for the public answer, that of the answer itself,
   * so that annotations it does not show (pending, rejected) leave it as it is; else the versions
   * of what the list was read from. None until the public answer is written.
   */
  const etagOf = (
    asker: Looker,
    { value: list, keys, tag }: Partial<Kept<PrismAnnotations>> & { value: PrismAnnotations },
  ) => {
    if (seesPublic(asker, list)) {
      return list.publicAnswer && versions.answerEtag(list.publicAnswer, asker.cookies);
    }
    return keys && versions.etag(keys, asker.cookies, tag);
  };

  return {
    /** A prism's annotations that the asker may see, newest first. */
    list: defineRead({
      for: "viewer",
      params: z.object({ prismId: idParam }),
      etag({ prismId }, asker) {
        // Memory tags only what it knows the asker may see: else the read decides (and 404s).
        const list = lists.current(prismId);
        return list && seesPrismAtOnce(asker.viewer.user, prismOf(list.value)) === true
          ? etagOf(asker, list)
          : undefined;
      },
      async read({ prismId }, asker): Promise<Answer<Annotation[]> | WrittenAnswer> {
        const loaded = await lists.get(prismId, async () => {
          const { owner, audience, views } = await prismAnnotations(db, prismId);
          const authors = new Set(views.flatMap((view) => view.author?.username ?? []));
          return {
            value: {
              ownerId: owner.id,
              audience,
              views,
              visitorHashes: new Set(views.flatMap((view) => view.row.visitorHash ?? [])),
            },
            keys: [
              versionKeys.annotations(prismId),
              versionKeys.prism(prismId),
              versionKeys.profile(owner.username),
              // Admins see pending annotations: a list is tagged as one for an admin or not.
              versionKeys.roles(),
              ...[...authors].map(versionKeys.profile),
            ],
          };
        });
        const list = loaded.value;
        if (!(await maySeePrism(db, asker.viewer.user, prismOf(list)))) {
          throw notFound("Prism not found");
        }
        if (!seesPublic(asker, list)) {
          return { value: visibleTo(asker.viewer, list), etag: () => etagOf(asker, loaded) };
        }
        list.publicAnswer ??= writeList(visibleTo(asker.viewer, list));
        return { written: list.publicAnswer, etag: () => etagOf(asker, loaded) };
      },
    }),
  };
}
