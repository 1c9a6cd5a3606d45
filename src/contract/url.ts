// Links members give. Free of the schema library, so a reading page can check one without it.

/**
 * An absolute http(s) address: the only kind of link Prism stores or shows. White space inside
 * (a line break above all) makes none, though the URL parser would drop some of it.
 */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}
