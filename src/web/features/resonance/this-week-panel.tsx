// "This week", on the owner's own page: views (readers of the page and reads of its prisms), hearts
// and responses over the last 7 days against the 7 before, and each prism's most responded passage, which opens that prism on the resonance
// map. Loaded only for the owner.
import { Activity, Map as MapIcon } from "lucide-react";
import { useId } from "react";
import type { ThisWeek, WeekCounts } from "../../../contract/resonance.ts";
import { Button } from "../../components/ui/button.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { responsesLabel } from "./passages.ts";
import { useThisWeek } from "./resonance-queries.ts";

const readers = (count: number) => (count === 1 ? "1 reader" : `${count} readers`);
const reads = (count: number) => (count === 1 ? "1 read" : `${count} reads`);

/** Each number of the week: its label, its count, and what else it says ("30 reads"). */
const STATS: {
  label: string;
  count: (week: WeekCounts) => number;
  detail?: (week: WeekCounts) => string;
}[] = [
  {
    label: "Views",
    count: (week) => week.readers,
    detail: (week) => `${week.readers === 1 ? "reader" : "readers"} · ${reads(week.views)}`,
  },
  { label: "Hearts", count: (week) => week.hearts },
  { label: "Responses", count: (week) => week.responses },
];

/** The week before, as a stat says it: "last week 4 readers · 9 reads", "last week 2". */
function lastWeekOf(stat: (typeof STATS)[number], week: WeekCounts): string {
  return stat.detail
    ? `last week ${readers(week.readers)} · ${reads(week.views)}`
    : `last week ${stat.count(week)}`;
}

/** Nothing this week or the week before: a new page, whose numbers would all be zero. */
const isQuiet = ({ thisWeek, lastWeek }: ThisWeek) =>
  [thisWeek, lastWeek].every((week) => STATS.every((stat) => stat.count(week) === 0));

export function ThisWeekPanel({ onShowOnMap }: { onShowOnMap: (prismId: number) => void }) {
  const week = useThisWeek();
  const headingId = useId();

  return (
    <section
      aria-labelledby={headingId}
      className="mt-8 rounded-2xl border border-border p-5 shadow-sm sm:p-6"
    >
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
        <Activity className="size-5 text-primary" aria-hidden="true" /> This week
      </h2>
      {week.isError ? (
        <LoadError
          compact
          className="mt-4"
          message="Could not load this week's numbers."
          onRetry={() => void week.refetch()}
          retrying={week.isFetching}
        />
      ) : week.isPending ? (
        <p role="status" className="mt-4 text-sm text-muted-foreground">
          Loading this week…
        </p>
      ) : isQuiet(week.data) ? (
        <EmptyState
          className="mt-4 p-6"
          title="No readers yet"
          description="Share your page with your team: who reads it, hearts it and responds shows here each week."
        />
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-3 gap-2 sm:gap-3">
            {STATS.map((stat) => (
              <div key={stat.label} className="rounded-xl bg-muted/60 p-2 sm:p-3">
                <dt className="text-xs font-medium break-normal text-muted-foreground">
                  {stat.label}
                </dt>
                <dd className="mt-1">
                  <span className="block text-2xl font-semibold tabular-nums">
                    {stat.count(week.data.thisWeek)}
                  </span>
                  {stat.detail ? (
                    <span className="block text-xs">{stat.detail(week.data.thisWeek)}</span>
                  ) : null}
                  <span className="block text-xs text-muted-foreground">
                    {lastWeekOf(stat, week.data.lastWeek)}
                  </span>
                </dd>
              </div>
            ))}
          </dl>
          {week.data.prisms.length > 0 ? (
            <>
              <h3 className="mt-5 text-sm font-semibold">Most responded passages</h3>
              <ul className="mt-2 grid gap-2">
                {week.data.prisms.map((prism) => (
                  <li
                    key={prism.id}
                    className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-sm"
                  >
                    <div className="min-w-0">
                      <span className="font-medium">{prism.title}</span>
                      {prism.mostResponded ? (
                        <span className="block text-muted-foreground">
                          <q className="font-serif italic">{prism.mostResponded.text}</q> ·{" "}
                          {responsesLabel(prism.mostResponded.count)}
                        </span>
                      ) : (
                        <span className="block text-muted-foreground">No responses yet</span>
                      )}
                    </div>
                    {prism.mostResponded ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Resonance map of ${prism.title}`}
                        onClick={() => onShowOnMap(prism.id)}
                      >
                        <MapIcon aria-hidden="true" /> Resonance map
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
