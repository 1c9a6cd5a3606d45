// Every string Prism accepts starts here: text without control characters (NUL and every other
// Unicode control code but tab, line feed and carriage return), which no form can type and no
// column should hold. A field that carries one is refused with a 400 naming it.
import { z } from "zod";

export const textMessages = {
  controlCharacters: "Must not contain control characters",
} as const;

const NO_CONTROL_CHARACTERS = /^(?:[\t\n\r]|\P{Cc})*$/u;

/** A string schema that refuses control characters; chain the field's own rules after it. */
export function text() {
  return z.string().regex(NO_CONTROL_CHARACTERS, textMessages.controlCharacters);
}

/**
 * Bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069): in a name or a title they
 * turn around the text beside it wherever it is shown.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** A one-line field (a name, a title): text, with any bidi controls dropped. */
export function singleLine() {
  return text().overwrite((value) => value.replace(BIDI_CONTROLS, ""));
}
