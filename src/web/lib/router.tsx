// Prism's additions to wouter, the router: the few things its own API does not say.
import type { MouseEventHandler, ReactNode } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { useLocationProperty } from "wouter/use-browser-location";

/** This page's address, path and query, as a page to come back to after signing in. */
export function usePageAddress(): string {
  const [path] = useLocation();
  const search = useSearch();
  return search ? `${path}?${search}` : path;
}

const currentHash = () => location.hash;
const noHash = () => "";

/** The address's #fragment ("" on the server, which never sees one). */
export function useHash(): string {
  return useLocationProperty(currentHash, noHash);
}

/**
 * A link in the site's navigation: marked `aria-current="page"` and styled active while its page,
 * or a page under it, is shown.
 */
export function NavLink({
  to,
  className,
  onClick,
  children,
}: {
  to: string;
  className: (state: { isActive: boolean }) => string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
  children: ReactNode;
}) {
  const [path] = useLocation();
  const here = path.toLowerCase();
  const target = to.toLowerCase();
  const isActive = here === target || here.startsWith(`${target}/`);
  return (
    <Link
      to={to}
      className={className({ isActive })}
      aria-current={isActive ? "page" : undefined}
      onClick={onClick}
    >
      {children}
    </Link>
  );
}
