// The Messages tab: what visitors sent through the contact form, newest first, as it was kept
// (also e-mailed to the team when the server has their address).
import type { CatalystContactMessage } from "../../../contract/catalyst.ts";
import { DateTime } from "../../lib/format.tsx";
import { CatalystTable, type Column } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

const columns: Column<CatalystContactMessage>[] = [
  { header: "Name", cell: (message) => message.name },
  {
    header: "Email",
    cell: (message) => (
      <a href={`mailto:${message.email}`} className="text-primary underline underline-offset-4">
        {message.email}
      </a>
    ),
    className: "break-all",
  },
  {
    header: "Message",
    cell: (message) => (
      <div className="max-w-md space-y-1">
        <p className="font-medium">{message.subject}</p>
        <p className="whitespace-pre-wrap break-words">{message.message}</p>
      </div>
    ),
  },
  {
    header: "Received",
    cell: (message) => <DateTime iso={message.createdAt} />,
    className: "whitespace-nowrap",
  },
];

export function MessagesTable(view: TableView) {
  return (
    <CatalystTable
      table="contact-messages"
      title="Messages"
      columns={columns}
      rowKey={(message) => message.id}
      loadError="Error loading messages."
      empty="No messages yet."
      {...view}
    />
  );
}
