// Page numbers in the URL (`?page=N`, from 1), as pages with a pager read them.

/** Far beyond any real list; keeps a hand-typed ?page= inside the server's offset bound. */
const MAX_PAGE = 100_000;

/** The page a `?page=` value names: 1 when it is missing or not a positive whole number. */
export function readPage(value: string | null): number {
  const page = Number.parseInt(value ?? "", 10);
  return Number.isFinite(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1;
}
