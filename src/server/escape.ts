// Text made safe inside markup: the page heads (HTML) and the sitemap (XML).
function escaper(apostrophe: string) {
  const entities: Record<string, string> = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": apostrophe,
  };
  return (value: string) => value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

export const escapeHtml = escaper("&#39;");
export const escapeXml = escaper("&apos;");
