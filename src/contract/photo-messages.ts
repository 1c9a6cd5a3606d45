// What an upload of a profile photo may be, and what Prism says of one.
export const photoTypes = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"];

export const photoMessages = {
  tooLarge: "This photo is larger than 5 MB. Choose a smaller one.",
  notAnImage:
    "This file is not a photo Prism can read. Choose a JPEG, PNG, WebP, GIF or AVIF image.",
  uploaded: "Your photo is on your profile.",
  removed: "Your photo is removed.",
} as const;
