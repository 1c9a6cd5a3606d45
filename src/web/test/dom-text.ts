// DOM helpers for the text-offset tests: mount sanitized HTML, find boundary points by the text
// around them (independently of the code under test), and read a range as the server reads HTML.
import { htmlToPlainText } from "../../contract/plain-text.ts";

/** Renders `html` the way a prism section does (innerHTML of a div in the page). */
export function mount(html: string): HTMLElement {
  const root = document.createElement("div");
  root.className = "prism-content";
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

function textNodes(root: Node): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  return nodes;
}

function find(root: Node, needle: string): { node: Text; index: number } {
  for (const node of textNodes(root)) {
    const index = node.data.indexOf(needle);
    if (index >= 0) return { node, index };
  }
  throw new Error(`no text node holds ${JSON.stringify(needle)}`);
}

/** The DOM point just before `needle`, in the first text node that holds it. */
export function pointAt(root: Node, needle: string): { node: Text; offset: number } {
  const { node, index } = find(root, needle);
  return { node, offset: index };
}

/** The DOM point just after `needle`, in the first text node that holds it. */
export function pointAfter(root: Node, needle: string): { node: Text; offset: number } {
  const { node, index } = find(root, needle);
  return { node, offset: index + needle.length };
}

/** What a range covers, as the server's htmlToPlainText reads the HTML of its contents. */
export function fragmentPlainText(range: Range): string {
  const holder = document.createElement("div");
  holder.append(range.cloneContents());
  return htmlToPlainText(holder.innerHTML);
}

/** A passage a reader can store: it neither starts nor ends with whitespace. */
export function isTrimmedPassage(text: string, start: number, end: number): boolean {
  return !/\s/.test(text[start] ?? " ") && !/\s/.test(text[end - 1] ?? " ");
}
