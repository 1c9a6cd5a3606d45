// Making a profile photo from an upload, with sharp (libvips): turned upright as its EXIF says,
// cut to a square around what draws the eye, and written as WebP with no metadata at all (no
// EXIF, GPS, XMP or ICC profile; colours converted to sRGB first), in two sizes.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { photoMessages } from "../../../contract/photo-messages.ts";
import { photoLimits } from "../../../contract/photos.ts";
import { badRequest } from "../../http-error.ts";

/**
 * Pixels an upload may have: a 64-megapixel camera's photo, and not a small file that unpacks to
 * gigabytes (a PNG of one colour, say).
 */
const INPUT_PIXELS_MAX = 64_000_000;

export interface MadePhoto {
  /** Names these bytes: the first 16 hex digits of the large image's SHA-256. */
  version: string;
  large: Buffer;
  small: Buffer;
}

function square(input: Buffer, side: number): Promise<Buffer> {
  return sharp(input, { limitInputPixels: INPUT_PIXELS_MAX, failOn: "error" })
    .rotate()
    .resize(side, side, { fit: "cover", position: sharp.strategy.attention })
    .toColourspace("srgb")
    .webp({ quality: 82, effort: 4 })
    .toBuffer();
}

/** The two images of a photo from the bytes a member sent; 400 when they are not an image. */
export async function makePhoto(upload: Buffer): Promise<MadePhoto> {
  try {
    const [large, small] = await Promise.all([
      square(upload, photoLimits.large),
      square(upload, photoLimits.small),
    ]);
    const version = createHash("sha256").update(large).digest("hex").slice(0, 16);
    return { version, large, small };
  } catch {
    throw badRequest(photoMessages.notAnImage);
  }
}
