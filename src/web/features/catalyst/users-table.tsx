// The Users tab: members newest first, with their status, last activity and what an admin may do.

import { useState } from "react";
import type { CatalystUser } from "../../../contract/catalyst.ts";
import { fullName } from "../../../contract/names.ts";
import { passwordResetMessages } from "../../../contract/password-reset.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { DateTime } from "../../lib/format.tsx";
import { useSiteServices } from "../auth/auth-queries.ts";
import { useUserActions } from "./catalyst-queries.ts";
import { CatalystTable, type Column, RowActions } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

export function UsersTable({ me, ...view }: TableView & { me: number }) {
  const actions = useUserActions();
  const noMail = useSiteServices()?.outgoingMail === false;
  // The member whose deactivation waits for the admin's confirmation.
  const [deactivating, setDeactivating] = useState<CatalystUser | null>(null);
  // The member whose silencing waits for the admin's confirmation.
  const [silencing, setSilencing] = useState<CatalystUser | null>(null);
  const columns: Column<CatalystUser>[] = [
    { header: "Username", cell: (user) => <span className="font-medium">@{user.username}</span> },
    { header: "Name", cell: (user) => fullName(user) },
    { header: "Email", cell: (user) => user.email, className: "break-all" },
    {
      header: "Status",
      cell: (user) => (
        <span className="flex flex-wrap gap-1">
          <Badge tone={user.isAdmin ? "primary" : "neutral"}>
            {user.isAdmin ? "Admin" : "User"}
          </Badge>
          {user.deactivatedAt ? <Badge tone="danger">Deactivated</Badge> : null}
          {user.silencedAt ? <Badge tone="warning">Silenced</Badge> : null}
        </span>
      ),
    },
    {
      header: "Last Active",
      cell: (user) => <DateTime iso={user.lastActiveAt} />,
      className: "whitespace-nowrap",
    },
    {
      header: "Actions",
      cell: (user) => {
        const self = user.id === me;
        return (
          <RowActions
            label={`Actions for @${user.username}`}
            actions={[
              {
                label: "Make Admin",
                hidden: user.isAdmin,
                onSelect: () => actions.setAdmin.mutate({ id: user.id, isAdmin: true }),
              },
              {
                // Nobody removes their own admin access or deactivates themselves (the server refuses too).
                label: "Remove Admin",
                hidden: !user.isAdmin || self,
                onSelect: () => actions.setAdmin.mutate({ id: user.id, isAdmin: false }),
              },
              {
                label: "Deactivate",
                hidden: user.deactivatedAt !== null || self,
                destructive: true,
                onSelect: () => setDeactivating(user),
              },
              {
                label: "Reactivate",
                hidden: user.deactivatedAt === null,
                onSelect: () => actions.reactivate.mutate(user.id),
              },
              {
                // A silenced member's responses are shown to them and admins alone.
                label: "Silence",
                hidden: user.silencedAt !== null || self,
                destructive: true,
                onSelect: () => setSilencing(user),
              },
              {
                label: "Unsilence",
                hidden: user.silencedAt === null,
                onSelect: () => actions.silence.mutate({ id: user.id, silenced: false }),
              },
              {
                label: "Reset Password",
                // The server refuses too (409) while no mail can leave.
                unavailable: noMail ? passwordResetMessages.adminCannotSend : undefined,
                onSelect: () => actions.resetPassword.mutate(user.id),
              },
            ]}
          />
        );
      },
    },
  ];
  return (
    <>
      <CatalystTable
        table="users"
        title="Users"
        columns={columns}
        rowKey={(user) => user.id}
        loadError="Error loading users."
        empty="No users yet."
        searchLabel="Search users by username, name or email"
        {...view}
      />
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => {
          if (!open) setDeactivating(null);
        }}
        title={`Deactivate @${deactivating?.username ?? ""}?`}
        description="They cannot sign in, and their profile is hidden, until an admin reactivates them. Nothing of theirs is deleted."
        actionLabel="Deactivate"
        destructive
        onConfirm={() => {
          if (deactivating) actions.deactivate.mutate(deactivating.id);
        }}
      />
      <ConfirmDialog
        open={silencing !== null}
        onOpenChange={(open) => {
          if (!open) setSilencing(null);
        }}
        title={`Silence @${silencing?.username ?? ""}?`}
        description="Their responses, past and future, are shown to them and to admins alone, and tell nobody. They are not told. Unsilence brings their responses back."
        actionLabel="Silence"
        destructive
        onConfirm={() => {
          if (silencing) actions.silence.mutate({ id: silencing.id, silenced: true });
        }}
      />
    </>
  );
}
