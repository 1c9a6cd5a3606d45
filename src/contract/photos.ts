// A member's profile photo: what an upload may be, what the server says of one it refuses, and
// the addresses it is served at. Prism keeps two square sizes of each photo under one version.
export const photoLimits = {
  /** Bytes an upload may have, as sent. */
  uploadBytes: 5 * 1024 * 1024,
  /** The side of the large image (a member's page), in pixels. */
  large: 256,
  /** The side of the small image (the header, lists), in pixels. */
  small: 96,
} as const;

/** The image types an upload may be; the server reads the bytes, whatever the type says. */
export const photoTypes = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"];

export const photoMessages = {
  tooLarge: "This photo is larger than 5 MB. Choose a smaller one.",
  notAnImage:
    "This file is not a photo Prism can read. Choose a JPEG, PNG, WebP, GIF or AVIF image.",
  uploaded: "Your photo is on your profile.",
  removed: "Your photo is removed.",
} as const;

/** The address of a member's photo at `version`: the large image, or with `small` the small one. */
export function photoPath(username: string, version: string, small = false): string {
  return `/api/users/${encodeURIComponent(username)}/photo/${version}${small ? "-small" : ""}.webp`;
}

/** A version and size as a photo's address names them (`{version}.webp`, `{version}-small.webp`). */
export const photoFilePattern = /^([0-9a-f]{16})(-small)?\.webp$/;

/**
 * The image to show for a member's photo of `px` CSS pixels: Prism's small image where it is
 * enough (twice its size for sharp screens), else the photo as it is (Prism's large image, or
 * Google's picture).
 */
export function photoSource(url: string, px: number): string {
  if (px * 2 > photoLimits.small || !url.startsWith("/api/users/")) return url;
  return url.replace(/\.webp$/, "-small.webp");
}
