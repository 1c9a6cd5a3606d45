// The Reports tab: what other servers of the fediverse reported (their `Flag`s) about a member,
// one of their prisms or a response on one, open reports first; Dismiss closes one (audited).
import type { CatalystReport } from "../../../contract/catalyst.ts";
import { DateTime } from "../../lib/format.tsx";
import { useDismissReport } from "./catalyst-queries.ts";
import { CatalystTable, type Column, RowActions } from "./catalyst-table.tsx";
import type { TableView } from "./table-view.ts";

const link = "text-primary underline underline-offset-4";

/** What the report names: the member, and the prism or response when it names one. */
function Reported({ report }: { report: CatalystReport }) {
  const { member, prism, response } = report;
  return (
    <div className="max-w-xs space-y-1">
      <a href={`/${encodeURIComponent(member.username)}`} className={link}>
        @{member.username}
      </a>
      {prism ? (
        <p>
          Prism:{" "}
          <a href={`/${encodeURIComponent(member.username)}?prism=${prism.id}`} className={link}>
            {prism.title}
          </a>
        </p>
      ) : null}
      {response ? <p className="break-words">Response: "{response.text}"</p> : null}
    </div>
  );
}

export function ReportsTable(view: TableView) {
  const dismiss = useDismissReport();
  const columns: Column<CatalystReport>[] = [
    {
      header: "From",
      cell: (report) => (
        <>
          <span className="block font-medium">{report.reporterDomain}</span>
          <span className="block max-w-[240px] break-all text-xs text-muted-foreground">
            {report.reporter}
          </span>
        </>
      ),
    },
    { header: "Reported", cell: (report) => <Reported report={report} /> },
    {
      header: "Comment",
      cell: (report) => (
        <p className="max-w-md whitespace-pre-wrap break-words">
          {report.comment || <span className="text-muted-foreground">No comment</span>}
        </p>
      ),
    },
    {
      header: "Received",
      cell: (report) => <DateTime iso={report.createdAt} />,
      className: "whitespace-nowrap",
    },
    {
      header: "Actions",
      cell: (report) =>
        report.dismissedAt ? (
          <span className="text-muted-foreground">Dismissed</span>
        ) : (
          <RowActions
            label={`Actions for the report from ${report.reporterDomain}`}
            actions={[{ label: "Dismiss", onSelect: () => dismiss.mutate(report.id) }]}
          />
        ),
    },
  ];
  return (
    <CatalystTable
      table="reports"
      title="Reports"
      columns={columns}
      rowKey={(report) => report.id}
      loadError="Error loading reports."
      empty="No reports from other servers."
      {...view}
    />
  );
}
