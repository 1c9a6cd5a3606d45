// What the feed, embed and oEmbed addresses may carry, and the oEmbed answer (oembed.com, 1.0:
// JSON only, a `rich` answer framing Prism's embed card). Apart from ./feeds.ts, which reading
// pages import without the schema library.
import { z } from "zod";
import { idParam } from "./paging.ts";
import { text } from "./text.ts";
import { usernameParam } from "./user.ts";

export const feedParams = z.object({ username: usernameParam });
export const embedPageParams = z.object({ username: usernameParam });
export const embedPrismParams = embedPageParams.extend({ prismId: idParam });
export const embedResponseParams = embedPrismParams.extend({ annotationId: idParam });

/** A size a consumer allows: a positive whole number of pixels. */
const pixels = z.coerce.number().int().positive().max(100_000);

export const oembedQuery = z.object({
  url: text().min(1).max(2048),
  format: z.enum(["json", "xml"]).default("json"),
  maxwidth: pixels.optional(),
  maxheight: pixels.optional(),
});

export const oembedSchema = z.object({
  type: z.literal("rich"),
  version: z.literal("1.0"),
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  html: z.string(),
  width: z.number(),
  height: z.number(),
});
export type Oembed = z.infer<typeof oembedSchema>;

export const embedMessages = {
  otherSite: "The address is not a page of this site",
  notEmbeddable: "No embeddable page at this address",
  jsonOnly: "Only the JSON format is supported",
} as const;
