// The export of a large account streams: 1,000 long prisms and 10,000 annotations download with
// the server's live heap growing by less than 50 MB, though the file itself is larger than that.
import v8 from "node:v8";
import vm from "node:vm";
import { expect, it } from "vitest";
import { annotations, notifications, prisms } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { setupTestApp, signIn } from "../../test/helpers.ts";

const t = setupTestApp();

const PRISMS = 1_000;
const ANNOTATIONS = 10_000;
const MB = 1024 * 1024;

v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

/** The heap that is still in use once garbage is collected. */
function liveHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

async function seed() {
  const owner = await buildUser(t.database);
  const reader = await buildUser(t.database);
  // About 25 KB of text per prism: the download is far larger than the memory it may use.
  const paragraph = `<p>${"Mornings are for deep work and long quiet thinking. ".repeat(9)}</p>`;
  const content = paragraph.repeat(55);
  const ids: number[] = [];
  for (let from = 0; from < PRISMS; from += 100) {
    const rows = await t.database.db
      .insert(prisms)
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          userId: owner.id,
          title: `Prism ${from + i}`,
          content,
          index: from + i,
        })),
      )
      .returning({ id: prisms.id });
    ids.push(...rows.map((row) => row.id));
  }
  for (let from = 0; from < ANNOTATIONS; from += 1_000) {
    const rows = await t.database.db
      .insert(annotations)
      .values(
        Array.from({ length: 1_000 }, (_, i) => ({
          prismId: ids[(from + i) % PRISMS] as number,
          userId: reader.id,
          selectedText: "Mornings",
          annotationText: `Response ${from + i}: ${"I work the same way. ".repeat(10)}`,
          selectionStart: 0,
          selectionEnd: 8,
          suffix: " are for deep work and long quiet",
          prismTitle: "Prism",
          status: "approved" as const,
        })),
      )
      .returning({ id: annotations.id, prismId: annotations.prismId });
    await t.database.db.insert(notifications).values(
      rows.map((row) => ({
        userId: owner.id,
        prismId: row.prismId,
        type: "annotation" as const,
        annotationId: row.id,
        actorName: "Reader",
      })),
    );
  }
  return owner;
}

/**
 * Downloads the export as the member: its size, its last characters, and the live heap's largest
 * growth above `before` (when given) sampled every 4 MB.
 */
async function download(headers: Record<string, string>, before?: number) {
  const response = await t.app.inject({
    method: "GET",
    url: "/api/user/export",
    headers,
    payloadAsStream: true,
  });
  expect(response.statusCode).toBe(200);
  let bytes = 0;
  let sampledAt = 0;
  let peak = 0;
  let tail = "";
  for await (const chunk of response.stream()) {
    bytes += (chunk as Buffer).length;
    tail = (tail + (chunk as Buffer).toString("utf8")).slice(-16);
    if (before !== undefined && bytes - sampledAt > 4 * MB) {
      sampledAt = bytes;
      peak = Math.max(peak, liveHeap() - before);
    }
  }
  return { bytes, tail, peak };
}

it(`streams ${PRISMS} prisms and ${ANNOTATIONS} annotations with the live heap growing by less than 50 MB`, async () => {
  const owner = await seed();
  const headers = await signIn(t.database, owner);
  // Measured on a second export: what the first leaves sized for the next (the database's
  // buffers, compiled code) is there before the measure starts, whatever the worker ran before.
  await download(headers);
  const { bytes, tail, peak } = await download(headers, liveHeap());
  console.log(
    `export of ${PRISMS} prisms and ${ANNOTATIONS} annotations: ${(bytes / MB).toFixed(1)} MB streamed, live heap peak +${(peak / MB).toFixed(1)} MB`,
  );
  // Were the document built in memory first, the heap would grow by more than its size.
  expect(bytes).toBeGreaterThan(60 * MB);
  expect(tail.endsWith("]}}}")).toBe(true);
  expect(peak).toBeGreaterThan(0);
  expect(peak).toBeLessThan(50 * MB);
}, 300_000);
