// The site header: logo, Explore, and the member menu or a Sign in link.
import { LogOut, Menu, Settings, ShieldCheck, User, X } from "lucide-react";
import { useState } from "react";
import { Link, NavLink, useLocation, useNavigate } from "react-router";
import { displayName } from "../../contract/names.ts";
import { Avatar } from "../components/ui/avatar.tsx";
import { Button } from "../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../components/ui/dropdown-menu.tsx";
import { useCurrentUser, useLogout } from "../features/auth/auth-queries.ts";
import { NotificationTray } from "../features/notifications/notification-tray.tsx";
import { useHighlightsControl } from "../lib/page-controls.ts";
import { rememberPage } from "../lib/storage.ts";

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
  const location = useLocation();
  const navigate = useNavigate();
  const [mobileOpen, setMobileOpen] = useState(false);
  const highlights = useHighlightsControl();

  const logout = useLogout();

  function handleSignIn() {
    rememberPage(location.pathname + location.search);
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
          {user ? <NotificationTray /> : null}
          {user ? (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" className="h-10 gap-2 px-2">
                  <Avatar user={user} className="size-8 text-xs" />
                  {/* Named by the name it shows (on small screens too), then what it opens. */}
                  <span className="sr-only max-w-40 truncate sm:not-sr-only">
                    {user.displayName || user.username}
                  </span>
                  <span className="sr-only">, account menu</span>
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuLabel>
                  <span className="block font-medium">{displayName(user)}</span>
                  <span className="block text-xs text-muted-foreground">@{user.username}</span>
                </DropdownMenuLabel>
                <DropdownMenuSeparator />
                <DropdownMenuItem onSelect={() => navigate(`/${user.username}`)}>
                  <User /> My Profile
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => navigate("/profile")}>
                  <Settings /> Profile Settings
                </DropdownMenuItem>
                {user.isAdmin ? (
                  <DropdownMenuItem onSelect={() => navigate("/catalyst")}>
                    <ShieldCheck /> Catalyst Admin
                  </DropdownMenuItem>
                ) : null}
                <DropdownMenuSeparator />
                <DropdownMenuItem onSelect={() => logout.mutate()}>
                  <LogOut /> Log out
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
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
