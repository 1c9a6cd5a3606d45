// A prism's slug: its title lowercased, punctuation removed, spaces turned to hyphens; and the
// address of a prism on its owner's page, which carries that slug.
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/[\s-]+/g, "-");
}

interface Titled {
  id: number;
  title: string;
}

/**
 * The path of a prism: /{username}/{slug}. A slug opens the first prism of the page that has it,
 * so a title that gives no slug, or the same slug as an earlier prism of `prisms` (the page's
 * prisms in order), is addressed by its id instead: /{username}?prism={id}.
 */
export function prismPath(username: string, prism: Titled, prisms: readonly Titled[] = []): string {
  const slug = slugify(prism.title);
  const first = prisms.find((other) => slugify(other.title) === slug);
  const profile = `/${encodeURIComponent(username)}`;
  return slug !== "" && (first === undefined || first.id === prism.id)
    ? `${profile}/${encodeURIComponent(slug)}`
    : `${profile}?prism=${prism.id}`;
}
