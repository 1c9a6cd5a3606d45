// A signed-in member's header controls: the notification tray and the account menu. Loaded on
// demand, once someone is signed in.
import { Inbox, LogOut, Settings, ShieldCheck, User, Users } from "lucide-react";
import { useLocation } from "wouter";
import { displayName } from "../../contract/names.ts";
import type { CurrentUser } from "../../contract/user.ts";
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
import { useLogout } from "../features/auth/auth-queries.ts";
import { NotificationTray } from "../features/notifications/notification-tray.tsx";

export function MemberMenu({ user }: { user: CurrentUser }) {
  const [, navigate] = useLocation();
  const logout = useLogout();

  return (
    <>
      <NotificationTray />
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size={null} className="h-10 rounded-lg px-2 py-2 text-sm">
            <Avatar user={user} size={32} className="size-8 text-xs" />
            {/* Named by the name it shows (on small screens too), then what it opens. */}
            <span className="sr-only max-w-40 truncate sm:not-sr-only">
              {user.displayName || user.username}
            </span>
            <span className="sr-only">, account menu</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="min-w-52">
          <DropdownMenuLabel>
            <span className="block font-medium">{displayName(user)}</span>
            <span className="block text-xs text-muted-foreground">@{user.username}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => navigate(`/${user.username}`)}>
            <User /> My Profile
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => navigate("/review")}>
            <Inbox /> Review responses
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => navigate("/teams")}>
            <Users /> Teams
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
    </>
  );
}
