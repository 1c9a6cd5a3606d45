// Reads a PNG's pixels, so that tests can tell what an image shows: 8-bit RGB or RGBA, not
// interlaced (what Prism's share cards are), each scanline unfiltered as the PNG standard says.
import { inflateSync } from "node:zlib";

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, four bytes a pixel, row by row. */
  rgba: Uint8Array;
}

const SIGNATURE = "89504e470d0a1a0a";

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

export function decodePng(png: Buffer): Pixels {
  if (png.subarray(0, 8).toString("hex") !== SIGNATURE) throw new Error("not a PNG");
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, color, , , interlace] = body.subarray(8);
      channels = color === 6 ? 4 : color === 2 ? 3 : 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error("unsupported PNG");
    } else if (type === "IDAT") {
      data.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const byte = raw[y * (stride + 1) + 1 + x] as number;
      const left = x >= channels ? (rows[y * stride + x - channels] as number) : 0;
      const up = y > 0 ? (rows[(y - 1) * stride + x] as number) : 0;
      const upLeft = x >= channels && y > 0 ? (rows[(y - 1) * stride + x - channels] as number) : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter ?? 0];
      rows[y * stride + x] = (byte + (predicted ?? 0)) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 4; c++) {
      rgba[i * 4 + c] = c < channels ? (rows[i * channels + c] as number) : 255;
    }
  }
  return { width, height, rgba };
}

/** The colour of the pixel at (x, y), as hex: "#ffffff". */
export function colorAt({ width, rgba }: Pixels, x: number, y: number): string {
  const at = (y * width + x) * 4;
  return `#${[0, 1, 2].map((c) => (rgba[at + c] as number).toString(16).padStart(2, "0")).join("")}`;
}
