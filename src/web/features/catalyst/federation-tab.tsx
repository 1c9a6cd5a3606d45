// The Federation tab: the delivery queue (what waits, what waits to be tried again, what failed),
// and each other server's domain Prism knows of, which an admin limits (a smaller inbox budget),
// blocks (its activities refused, nothing delivered to it) or opens again; a domain not listed
// yet is named in the form above the table.
import { type FormEvent, useId, useState } from "react";
import {
  type CatalystDomain,
  type CatalystFederation,
  type DomainPolicy,
  domainParam,
} from "../../../contract/catalyst.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { DateTime } from "../../lib/format.tsx";
import { useCatalystFederation, useSetDomainPolicy } from "./catalyst-queries.ts";
import { type Column, RowActions, RowsTable } from "./catalyst-table.tsx";

const figures: { title: string; value: (queue: CatalystFederation["queue"]) => number }[] = [
  { title: "Waiting in the queue", value: (queue) => queue.depth },
  { title: "Ready to send", value: (queue) => queue.ready },
  { title: "Waiting to be tried again", value: (queue) => queue.retrying },
  { title: "Failed deliveries", value: (queue) => queue.failures },
];

const policyBadges: Record<
  DomainPolicy,
  { label: string; tone: "neutral" | "warning" | "danger" }
> = {
  open: { label: "Open", tone: "neutral" },
  limited: { label: "Limited", tone: "warning" },
  blocked: { label: "Blocked", tone: "danger" },
};

/** A domain not listed yet, limited or blocked by name. */
function DomainForm() {
  const setPolicy = useSetDomainPolicy();
  const [domain, setDomain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const submit = (policy: DomainPolicy) => (event: FormEvent) => {
    event.preventDefault();
    const parsed = domainParam.safeParse(domain);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Enter a domain, like example.social");
      return;
    }
    setError(null);
    setPolicy.mutate({ domain: parsed.data, policy }, { onSuccess: () => setDomain("") });
  };
  return (
    <form className="flex flex-wrap items-end gap-3" onSubmit={submit("blocked")} noValidate>
      <div className="min-w-0 flex-1 basis-56 space-y-2">
        <Label htmlFor={inputId}>Domain</Label>
        <Input
          id={inputId}
          value={domain}
          placeholder="example.social"
          autoComplete="off"
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => setDomain(event.target.value)}
        />
        {error ? (
          <p id={errorId} className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex gap-2">
        <Button type="button" variant="outline" onClick={submit("limited")}>
          Limit
        </Button>
        <Button type="submit" variant="destructive">
          Block
        </Button>
      </div>
    </form>
  );
}

function domainColumns(setPolicy: ReturnType<typeof useSetDomainPolicy>): Column<CatalystDomain>[] {
  const to = (row: CatalystDomain, policy: DomainPolicy) => () =>
    setPolicy.mutate({ domain: row.domain, policy });
  return [
    {
      header: "Domain",
      cell: (row) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="break-all font-medium">{row.domain}</span>
          <Badge tone={policyBadges[row.policy].tone}>{policyBadges[row.policy].label}</Badge>
        </span>
      ),
    },
    {
      header: "Waiting",
      cell: (row) => (
        <span className="tabular-nums">
          {row.queued}
          {row.retrying > 0 ? (
            <span className="text-muted-foreground"> ({row.retrying} to try again)</span>
          ) : null}
        </span>
      ),
    },
    {
      header: "Failures",
      cell: (row) => (
        <>
          <span className="tabular-nums">{row.failures}</span>
          {row.lastFailure && row.lastFailureAt ? (
            <span className="block text-xs text-muted-foreground">
              Last: {row.lastFailure}, <DateTime iso={row.lastFailureAt} />
            </span>
          ) : null}
        </>
      ),
    },
    {
      header: "Actions",
      cell: (row) => (
        <RowActions
          label={`Actions for ${row.domain}`}
          actions={[
            { label: "Limit", onSelect: to(row, "limited"), hidden: row.policy === "limited" },
            {
              label: "Block",
              onSelect: to(row, "blocked"),
              hidden: row.policy === "blocked",
              destructive: true,
            },
            { label: "Open again", onSelect: to(row, "open"), hidden: row.policy === "open" },
          ]}
        />
      ),
    },
  ];
}

export function FederationTab() {
  const federation = useCatalystFederation();
  const setPolicy = useSetDomainPolicy();
  const queue = federation.data?.queue;
  return (
    <div className="space-y-6">
      {queue ? (
        <ul aria-label="Delivery queue" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {figures.map((figure) => (
            <li key={figure.title}>
              <Card className="h-full p-4">
                <dl>
                  <dt className="text-sm text-muted-foreground">{figure.title}</dt>
                  <dd className="mt-1 text-2xl font-semibold tabular-nums">
                    {figure.value(queue)}
                  </dd>
                </dl>
              </Card>
            </li>
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="limit-domain" className="space-y-3">
        <h2 id="limit-domain" className="text-lg font-semibold">
          Limit or block a server
        </h2>
        <p className="text-sm text-muted-foreground">
          A limited server may send 60 activities every 10 minutes instead of 600. A blocked
          server's activities are refused and nothing is sent to it. Either covers its subdomains.
        </p>
        <DomainForm />
      </section>
      <RowsTable
        title="Other servers"
        columns={domainColumns(setPolicy)}
        rowKey={(row) => row.domain}
        rows={federation.data?.domains ?? []}
        query={federation}
        loadError="Error loading federation."
        empty="No other servers yet."
      />
    </div>
  );
}
