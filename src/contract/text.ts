// Every string Prism accepts starts here: text without control characters (NUL and every other
// Unicode control code but tab, line feed and carriage return), which no form can type and no
// column should hold. A field that carries one is refused with a 400 naming it. One-line fields
// hold no line break either.
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

/**
 * Line breaks: CR, LF (CRLF is one), NEL, and the line and paragraph separators (U+2028, U+2029),
 * with the white space around them.
 */
const LINE_BREAKS = /\s*[\n\r\u0085\u2028\u2029]\s*/g;

/**
 * `value` on one line: each run of line breaks (and the white space around it) becomes a space.
 * What one-line fields store, and what a plain-text e-mail or a header writes of any field.
 */
export function oneLine(value: string): string {
  return value.replace(LINE_BREAKS, " ");
}

/**
 * A one-line field (a name, a title): text, on one line, with any bidi controls dropped. A form's
 * one-line input cannot hold a line break, so one that arrives (pasted U+2028, say) is a space,
 * as white space is trimmed, rather than an error.
 */
export function singleLine() {
  return text().overwrite((value) => oneLine(value).replace(BIDI_CONTROLS, ""));
}
