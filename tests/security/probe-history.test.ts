// A prism's history is bounded whatever pins its versions: per prism, and in bytes per member.
// A response pins the version it was made on, unless it is the owner's own.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { limits } from "../../src/contract/limits.ts";
import { savePrism } from "../../src/server/commands/prisms.ts";
import { prismRevisions, prisms } from "../../src/server/db/schema.ts";
import { buildAnnotation, buildPrism, buildUser } from "../../src/server/test/builders.ts";
import { setupTestDatabase } from "../../src/server/test/helpers.ts";
import { writeAs } from "../../src/server/test/write.ts";

const t = setupTestDatabase();

/** What the tests that draw or save hundreds of times may take on a busy two-core machine. */
const HEAVY = 90_000;

/** The numbers of the versions kept of a prism. */
async function keptOf(prismId: number): Promise<number[]> {
  const rows = await t.database.db
    .select({ number: prismRevisions.number })
    .from(prismRevisions)
    .where(eq(prismRevisions.prismId, prismId));
  return rows.map((row) => row.number);
}

/** The bytes of the versions kept of a member's prisms (titles and contents, UTF-8). */
async function bytesOf(userId: number): Promise<number> {
  const [row] = await t.database.db
    .select({
      bytes: sql<number>`coalesce(sum(octet_length(${prismRevisions.title}) + octet_length(${prismRevisions.content})), 0)::int`,
    })
    .from(prismRevisions)
    .innerJoin(prisms, eq(prisms.id, prismRevisions.prismId))
    .where(eq(prisms.userId, userId));
  return row?.bytes ?? 0;
}

/** Saves a new text of the prism `times` times; after each save, `respond` answers its version. */
async function saveOften(
  owner: Awaited<ReturnType<typeof buildUser>>,
  prismId: number,
  times: number,
  respond: (revision: number) => Promise<unknown>,
  words = (i: number) => `<p>Version ${i} of how I work.</p>`,
) {
  for (let i = 0; i < times; i++) {
    const prism = await savePrism(writeAs(t.database, owner), prismId, {
      title: "How I work",
      content: words(i),
    });
    await respond(prism.revision);
  }
}

describe("a prism's history, saved and answered over and over", () => {
  it(
    "an owner answering their own prism after every save pins nothing",
    async () => {
      const owner = await buildUser(t.database);
      const prism = await buildPrism(t.database, { userId: owner.id, title: "How I work" });
      await saveOften(owner, prism.id, 150, (revision) =>
        buildAnnotation(t.database, { prismId: prism.id, userId: owner.id, revision }),
      );
      const kept = await keptOf(prism.id);
      expect(kept).toHaveLength(limits.revisionsKept - 1);
      expect(Math.min(...kept)).toBe(150 + 2 - limits.revisionsKept);
    },
    HEAVY,
  );

  it(
    "300 saves, each answered by a stranger, keep the bound",
    async () => {
      const owner = await buildUser(t.database);
      const stranger = await buildUser(t.database);
      const prism = await buildPrism(t.database, { userId: owner.id, title: "How I work" });
      await saveOften(owner, prism.id, 300, (revision) =>
        buildAnnotation(t.database, { prismId: prism.id, userId: stranger.id, revision }),
      );
      const kept = await keptOf(prism.id);
      // The newest answered ones, and the first version, which no one answered.
      expect(kept.sort((a, b) => a - b)).toEqual([
        1,
        ...Array.from(
          { length: limits.answeredRevisionsKept },
          (_, i) => 301 - limits.answeredRevisionsKept + i,
        ),
      ]);
    },
    HEAVY,
  );

  it(
    "keeps answered versions before unanswered ones",
    async () => {
      const owner = await buildUser(t.database);
      const prism = await buildPrism(t.database, { userId: owner.id, title: "How I work" });
      // Versions 2 to 4 are answered by a visitor, the rest by no one.
      await saveOften(owner, prism.id, 120, async (revision) => {
        if (revision <= 4) await buildAnnotation(t.database, { prismId: prism.id, revision });
      });
      // Versions 2 to 4 beside the newest 99 others.
      const kept = await keptOf(prism.id);
      expect(kept.sort((a, b) => a - b)).toEqual([
        2,
        3,
        4,
        ...Array.from(
          { length: limits.revisionsKept - 1 },
          (_, i) => 121 - (limits.revisionsKept - 1) + i,
        ),
      ]);
    },
    HEAVY,
  );

  it(`keeps at most ${limits.revisionBytesPerMember / 1_000_000} MB of versions per member, across their prisms`, async () => {
    const owner = await buildUser(t.database);
    const stranger = await buildUser(t.database);
    const large = (i: number) => `<p>${`${i} `.repeat(40_000 / (String(i).length + 1))}</p>`;
    // Three prisms with 99 versions of about 40 KB each, every one answered by a stranger, as
    // 297 saves would have kept them: about 12 MB.
    const saved = [];
    for (let p = 0; p < 3; p++) {
      const prism = await buildPrism(t.database, {
        userId: owner.id,
        title: "How I work",
        revision: limits.revisionsKept,
      });
      const numbers = Array.from({ length: limits.revisionsKept - 1 }, (_, i) => i + 1);
      await t.database.db.insert(prismRevisions).values(
        numbers.map((number) => ({
          prismId: prism.id,
          number,
          title: "How I work",
          content: large(p * 1000 + number),
          createdAt: new Date(Date.UTC(2026, 0, 1, p, number)),
        })),
      );
      for (const revision of numbers) {
        await buildAnnotation(t.database, { prismId: prism.id, userId: stranger.id, revision });
      }
      saved.push(prism);
    }
    expect(await bytesOf(owner.id)).toBeGreaterThan(limits.revisionBytesPerMember);
    const last = saved.at(-1)?.id ?? 0;
    await savePrism(writeAs(t.database, owner), last, {
      title: "How I work",
      content: large(9999),
    });
    const bytes = await bytesOf(owner.id);
    expect(bytes).toBeLessThanOrEqual(limits.revisionBytesPerMember);
    expect(bytes).toBeGreaterThan(limits.revisionBytesPerMember - 50_000);
    // The oldest went: the first prism's history, from its start; the version just kept stays.
    expect(Math.min(...(await keptOf(saved[0]?.id ?? 0)))).toBeGreaterThan(1);
    expect(await keptOf(last)).toContain(limits.revisionsKept);
  });
});
