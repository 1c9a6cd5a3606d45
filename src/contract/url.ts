// Links members give. Free of the schema library, so a reading page can check one without it.

/** An absolute http(s) address: the only kind of link Prism stores or shows. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}
