// The site header: logo, Explore, and the member menu or a Sign in link.
import { Menu, X } from "lucide-react";
import { Suspense, useState } from "react";
import { Link, useLocation } from "wouter";
import { Button } from "../components/ui/button.tsx";
import { useCurrentUser } from "../features/auth/auth-queries.ts";
import { useHighlightsControl } from "../lib/page-controls.ts";
import { NavLink, usePageAddress } from "../lib/router.tsx";
import { rememberPage } from "../lib/storage.ts";
import { lazyComponent } from "./stale-scripts.ts";

// Members' controls load only for a signed-in member: a visitor's page carries no menu code.
const MemberMenu = lazyComponent(() => import("./member-menu.tsx"), "MemberMenu");

function Logo() {
  return (
    <Link
      to="/"
      className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight"
    >
      <img src="/favicon.svg" alt="" className="size-7" />
      <span>Prism</span>
    </Link>
  );
}

export function Header() {
  const { user } = useCurrentUser();
  const page = usePageAddress();
  const [, navigate] = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const highlights = useHighlightsControl();

  function handleSignIn() {
    rememberPage(page);
    navigate("/sign-in");
  }

  const navLink = ({ isActive }: { isActive: boolean }) =>
    `rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground ${isActive ? "text-foreground" : "text-muted-foreground"}`;

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4">
        <Logo />
        <nav aria-label="Main" className="hidden md:block">
          <NavLink to="/explore" className={navLink}>
            Explore
          </NavLink>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {user ? (
            <Suspense fallback={<div className="h-10 w-24" />}>
              <MemberMenu user={user} />
            </Suspense>
          ) : (
            <Button variant="default" size="sm" asChild>
              <Link
                to="/sign-in"
                onClick={(event) => {
                  event.preventDefault();
                  handleSignIn();
                }}
              >
                Sign in
              </Link>
            </Button>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
            onClick={() => setMobileOpen((open) => !open)}
          >
            {mobileOpen ? <X /> : <Menu />}
          </Button>
        </div>
      </div>
      {mobileOpen ? (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="border-t border-border px-4 py-2 md:hidden"
        >
          <NavLink to="/explore" className={navLink} onClick={() => setMobileOpen(false)}>
            Explore
          </NavLink>
          {highlights ? (
            <button
              type="button"
              className={navLink({ isActive: false })}
              aria-pressed={highlights.on}
              onClick={() => {
                highlights.toggle();
                setMobileOpen(false);
              }}
            >
              {highlights.on ? "Hide Highlights" : "Show Highlights"} ({highlights.count})
            </button>
          ) : null}
          {user?.isAdmin ? (
            <NavLink to="/catalyst" className={navLink} onClick={() => setMobileOpen(false)}>
              Catalyst Admin
            </NavLink>
          ) : null}
        </nav>
      ) : null}
    </header>
  );
}
