import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { photoMessages } from "../../../contract/photo-messages.ts";
import { userPhotos, users } from "../../db/schema.ts";
import { buildUser } from "../../test/builders.ts";
import { setupTestApp, signIn, TEST_ORIGIN } from "../../test/helpers.ts";

const t = setupTestApp();

/** A photo as a phone takes it: a JPEG wider than tall, with EXIF and GPS in it. */
async function phonePhoto(width = 1200, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .jpeg()
    .withMetadata({
      exif: {
        IFD0: { Make: "PhoneMaker", Model: "Pocket 9", Artist: "Theo Lindqvist" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "59/1 19/1 0/1",
          GPSLongitudeRef: "E",
          GPSLongitude: "18/1 4/1 0/1",
        },
      },
    })
    .toBuffer();
}

const photosOf = (userId: number) =>
  t.database.db.select().from(userPhotos).where(eq(userPhotos.userId, userId));

const upload = (body: Buffer, headers: Record<string, string>, type = "image/jpeg") =>
  t.app.inject({
    method: "PUT",
    url: "/api/user/photo",
    headers: { origin: TEST_ORIGIN, "content-type": type, ...headers },
    payload: body,
  });

describe("PUT /api/user/photo", () => {
  it("makes the upload a square WebP with no metadata, at a versioned address kept a year", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const sent = await phonePhoto();
    // The test's own photo carries what the server must take out.
    const before = await sharp(sent).metadata();
    expect(before.exif?.toString("latin1")).toContain("PhoneMaker");

    const response = await upload(sent, headers);
    expect(response.statusCode).toBe(200);
    const url: string = response.json().profileImageUrl;
    expect(url).toMatch(new RegExp(`^/api/users/${user.username}/photo/[0-9a-f]{16}\\.webp$`));

    const large = await t.app.inject({ method: "GET", url });
    expect(large.statusCode).toBe(200);
    expect(large.headers["content-type"]).toBe("image/webp");
    expect(large.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const image = await sharp(large.rawPayload).metadata();
    expect(image).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(image.exif).toBeUndefined();
    expect(image.xmp).toBeUndefined();
    expect(image.icc).toBeUndefined();
    expect(large.rawPayload.includes("PhoneMaker")).toBe(false);
    expect(large.rawPayload.includes("Theo Lindqvist")).toBe(false);

    const small = await t.app.inject({ method: "GET", url: url.replace(".webp", "-small.webp") });
    expect(small.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ width: 96, height: 96 });

    // Its profile names the same address.
    const profile = await t.app.inject({ method: "GET", url: `/api/users/${user.username}` });
    expect(profile.json().profileImageUrl).toBe(url);
  });

  it("sends an older version's address to the current one, and a removed photo's nowhere", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const first: string = (await upload(await phonePhoto(), headers)).json().profileImageUrl;
    const png = await sharp({
      create: { width: 300, height: 600, channels: 4, background: "#2255aa" },
    })
      .png()
      .toBuffer();
    const second: string = (await upload(png, headers, "image/png")).json().profileImageUrl;
    expect(second).not.toBe(first);

    const old = await t.app.inject({ method: "GET", url: first });
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe(second);
    expect(old.headers["cache-control"]).toBe("no-cache");

    const removed = await t.app.inject({
      method: "DELETE",
      url: "/api/user/photo",
      headers: { origin: TEST_ORIGIN, ...headers },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().profileImageUrl).toBeNull();
    expect((await t.app.inject({ method: "GET", url: second })).statusCode).toBe(404);
    expect(await photosOf(user.id)).toEqual([]);
  });

  it("refuses more than 5 MB, and stores nothing", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const response = await upload(randomBytes(5 * 1024 * 1024 + 1), headers);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: photoMessages.tooLarge });
    expect(await photosOf(user.id)).toEqual([]);
  });

  it("refuses what is not an image, whatever its type says, and stores nothing", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const text = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'></svg> not a photo");
    const posing = await upload(text, headers, "image/png");
    expect(posing.statusCode).toBe(400);
    expect(posing.json()).toEqual({ message: photoMessages.notAnImage });
    const plain = await upload(text, headers, "text/plain");
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toEqual({ message: photoMessages.notAnImage });
    expect(await photosOf(user.id)).toEqual([]);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.profileImageUrl).toBeNull();
  });

  it("takes an upload only from Prism's own pages", async () => {
    const user = await buildUser(t.database);
    const headers = await signIn(t.database, user);
    const response = await upload(await phonePhoto(), {
      ...headers,
      origin: "https://elsewhere.example",
    });
    expect(response.statusCode).toBe(403);
    const unsigned = await upload(await phonePhoto(), {});
    expect(unsigned.statusCode).toBe(401);
    expect(await photosOf(user.id)).toEqual([]);
  });
});
