// Draws a share card: satori lays it out as SVG in Prism's look (its colours; Inter for the names
// and titles and Lora for the prism's words, as the page sets them in a sans and a serif), and resvg
// turns the SVG into a PNG on libuv's thread pool, off the event loop.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { renderAsync } from "@resvg/resvg-js";
import type { ReactElement } from "react";
import satori, { type Font } from "satori";
import { type CardContent, cardSize } from "../../../contract/cards.ts";
import { brand } from "../../../contract/names.ts";

const require = createRequire(import.meta.url);

/** The palette of the web app's stylesheet (src/web/styles.css). */
const colors = {
  background: "#ffffff",
  foreground: "#18181b",
  muted: "#f4f4f5",
  mutedForeground: "#52525b",
  border: "#e4e4e7",
  primary: "#4338ca",
  gradient: "linear-gradient(100deg, #4f46e5, #c026d3 45%, #d97706)",
};

/**
 * The scripts the fonts cover, each a face of its own (satori keeps one face per name, weight and
 * style, and takes a glyph from the first face in the family list that has it). Names and prisms
 * in other scripts draw the fonts' blank glyph.
 */
const subsets = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "vietnamese"];

const families = {
  sans: { font: "inter", weights: [400, 600] as const, subsets },
  // Lora has no Greek.
  serif: { font: "lora", weights: [400] as const, subsets: subsets.filter((s) => s !== "greek") },
};

/** A CSS family list that names every face of the font. */
const familyList = ({ font, subsets: covered }: (typeof families)[keyof typeof families]) =>
  covered.map((subset) => `${font}-${subset}`).join(", ");

let loading: Promise<Font[]> | undefined;

/** The fonts, read from their packages once (satori reads the woff files, not woff2). */
function fonts(): Promise<Font[]> {
  loading ??= Promise.all(
    Object.values(families).flatMap(({ font, weights, subsets: covered }) =>
      weights.flatMap((weight) =>
        covered.map(async (subset) => {
          const file = `@fontsource/${font}/files/${font}-${subset}-${weight}-normal.woff`;
          const data = await readFile(require.resolve(file));
          return { name: `${font}-${subset}`, data, weight, style: "normal" as const };
        }),
      ),
    ),
  );
  return loading;
}

type Style = Record<string, string | number>;

function box(style: Style, children: ReactElement | string | (ReactElement | null)[]) {
  return { type: "div", key: null, props: { style: { display: "flex", ...style }, children } };
}

function layout(card: CardContent): ReactElement {
  return box(
    {
      width: "100%",
      height: "100%",
      flexDirection: "column",
      backgroundColor: colors.background,
      color: colors.foreground,
      fontFamily: familyList(families.sans),
    },
    [
      box({ height: 12, width: "100%", backgroundImage: colors.gradient }, []),
      box({ flexGrow: 1, flexDirection: "column", padding: "56px 80px 60px" }, [
        box({ fontSize: 34, fontWeight: 600, color: colors.primary }, brand),
        box(
          {
            marginTop: 36,
            fontSize: 60,
            fontWeight: 600,
            lineHeight: 1.15,
            letterSpacing: "-0.02em",
            maxHeight: 140,
            overflow: "hidden",
          },
          card.title,
        ),
        card.excerpt === null
          ? null
          : box(
              {
                marginTop: 24,
                fontFamily: familyList(families.serif),
                fontSize: 32,
                lineHeight: 1.5,
                color: colors.mutedForeground,
                maxHeight: 144,
                overflow: "hidden",
              },
              card.excerpt,
            ),
        box(
          {
            marginTop: "auto",
            alignItems: "center",
            borderTop: `2px solid ${colors.border}`,
            paddingTop: 28,
          },
          [
            box(
              {
                width: 72,
                height: 72,
                borderRadius: 36,
                alignItems: "center",
                justifyContent: "center",
                backgroundColor: colors.muted,
                color: colors.mutedForeground,
                fontSize: 28,
                fontWeight: 600,
              },
              card.initials,
            ),
            box({ marginLeft: 24, flexDirection: "column", overflow: "hidden" }, [
              box({ fontSize: 32, fontWeight: 600 }, card.name),
              box({ fontSize: 26, color: colors.mutedForeground }, `@${card.username}`),
            ]),
          ],
        ),
      ]),
    ],
  );
}

/**
 * Parses the fonts and starts satori's layout engine, which the first card would otherwise wait
 * for (a second or more), by laying out a card that is thrown away.
 */
export async function prepareRenderer(): Promise<void> {
  await satori(
    layout({ name: brand, initials: "P", username: brand, title: brand, excerpt: brand }),
    { ...cardSize, fonts: await fonts() },
  );
}

/** The card as a 1200 × 630 PNG. */
export async function renderCard(card: CardContent): Promise<Buffer> {
  const svg = await satori(layout(card), { ...cardSize, fonts: await fonts() });
  // satori draws text as paths: resvg needs no font (and would scan the system's on every call).
  const image = await renderAsync(svg, {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false },
  });
  return image.asPng();
}
