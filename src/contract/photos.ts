// A member's profile photo: its bounds and the addresses it is served at. Prism keeps two square
// sizes of each photo under one version. (What the server says of an upload it refuses:
// `photo-messages.ts`.)
export const photoLimits = {
  /** Bytes an upload may have, as sent. */
  uploadBytes: 5 * 1024 * 1024,
  /** The side of the large image (a member's page), in pixels. */
  large: 256,
  /** The side of the small image (the header, lists), in pixels. */
  small: 96,
  /**
   * The longest photo address a list of members (explore) carries: Prism's own and Google's are
   * about a hundred characters; a longer one is left out there, and initials shown instead.
   */
  listedAddressMax: 256,
} as const;

/** The address of a member's photo at `version`: the large image, or with `small` the small one. */
export function photoPath(username: string, version: string, small = false): string {
  return `/api/users/${encodeURIComponent(username)}/photo/${version}${small ? "-small" : ""}.webp`;
}

/** A version and size as a photo's address names them (`{version}.webp`, `{version}-small.webp`). */
export const photoFilePattern = /^([0-9a-f]{16})(-small)?\.webp$/;

/**
 * The image to show for a photo `px` CSS pixels wide: Prism's small image where it is enough
 * (for screens of twice the density too), else the photo as it is (Prism's large image, or
 * Google's picture, whose address never ends in .webp).
 */
export const photoSource = (url: string, px: number): string =>
  px > 48 ? url : url.replace(/\.webp$/, "-small.webp");
