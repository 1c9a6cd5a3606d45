// Maps between a DOM selection inside rendered prism content and character offsets into the
// prism's plain text. The rules match htmlToPlainText (src/contract/plain-text.ts): text nodes
// in order, a newline for <br>, and a newline before a block that follows text.

const BLOCKS = new Set([
  "P",
  "DIV",
  "LI",
  "UL",
  "OL",
  "BLOCKQUOTE",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
]);

interface Piece {
  /** A text node, or null for a newline the rules insert. */
  node: Text | null;
  start: number;
  text: string;
}

/** The plain text of `root`, in pieces that remember their DOM nodes. */
function pieces(root: Node): { pieces: Piece[]; text: string } {
  const out: Piece[] = [];
  let text = "";
  const push = (node: Text | null, value: string) => {
    out.push({ node, start: text.length, text: value });
    text += value;
  };
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        push(child as Text, (child as Text).data);
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        const tag = (child as Element).tagName;
        if (tag === "BR") {
          push(null, "\n");
          continue;
        }
        if (BLOCKS.has(tag) && text.length > 0 && !text.endsWith("\n")) push(null, "\n");
        walk(child);
      }
    }
  };
  walk(root);
  return { pieces: out, text };
}

export function plainTextOf(root: Node): string {
  return pieces(root).text;
}

/** The plain-text offset of a DOM boundary point inside `root`, or -1. */
function offsetOf(
  root: Node,
  list: Piece[],
  length: number,
  container: Node,
  offset: number,
): number {
  if (!root.contains(container)) return -1;
  if (container.nodeType === Node.TEXT_NODE) {
    const piece = list.find((p) => p.node === container);
    return piece ? piece.start + Math.min(offset, piece.text.length) : -1;
  }
  // A boundary between elements: it sits where the first text at or after it begins.
  const boundary = document.createRange();
  boundary.setStart(container, offset);
  for (const piece of list) {
    if (piece.node && boundary.comparePoint(piece.node, 0) >= 0) return piece.start;
  }
  return length;
}

export interface TextSelection {
  selectedText: string;
  selectionStart: number;
  selectionEnd: number;
}

/**
 * The selection inside `root` as plain-text offsets, trimmed of surrounding whitespace; null when
 * neither end is in root or it holds only whitespace there. A selection that runs out of root is
 * corrected to the part inside it: a start before root becomes 0, an end past it root's length.
 * Offsets of -1 when a boundary inside root cannot be placed in its text.
 */
export function selectionWithin(root: HTMLElement, range: Range): TextSelection | null {
  const startsInside = root.contains(range.startContainer);
  const endsInside = root.contains(range.endContainer);
  // A selection that spans the whole of root from outside (select all) is someone copying text.
  if (!startsInside && !endsInside) return null;
  const { pieces: list, text } = pieces(root);
  let start = startsInside
    ? offsetOf(root, list, text.length, range.startContainer, range.startOffset)
    : 0;
  let end = endsInside
    ? offsetOf(root, list, text.length, range.endContainer, range.endOffset)
    : text.length;
  if (start < 0 || end < 0)
    return { selectedText: range.toString(), selectionStart: -1, selectionEnd: -1 };
  while (start < end && /\s/.test(text[start] ?? "")) start++;
  while (end > start && /\s/.test(text[end - 1] ?? "")) end--;
  if (end <= start) return null;
  return { selectedText: text.slice(start, end), selectionStart: start, selectionEnd: end };
}

/** A DOM range over plain-text offsets [start, end) inside `root`, or null if out of bounds. */
export function rangeFor(root: Node, start: number, end: number): Range | null {
  const { pieces: list, text } = pieces(root);
  if (start < 0 || end > text.length || end <= start) return null;
  const textPieces = list.filter((p): p is Piece & { node: Text } => p.node !== null);
  const locate = (offset: number, preferNext: boolean) => {
    for (const piece of textPieces) {
      const inside = preferNext
        ? offset >= piece.start && offset < piece.start + piece.text.length
        : offset > piece.start && offset <= piece.start + piece.text.length;
      if (inside) return { node: piece.node, offset: offset - piece.start };
    }
    return null;
  };
  const from = locate(start, true);
  const to = locate(end, false);
  if (!from || !to) return null;
  const range = document.createRange();
  range.setStart(from.node, from.offset);
  range.setEnd(to.node, to.offset);
  return range;
}
