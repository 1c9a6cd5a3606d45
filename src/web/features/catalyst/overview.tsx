// The Overview tab: the eight cards of spec §2 and, beneath them, the last 30 days as a chart.
import { Suspense } from "react";
import type { CatalystStats } from "../../../contract/catalyst.ts";
import { lazyComponent } from "../../app/stale-scripts.ts";
import { Card } from "../../components/ui/card.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { useCatalystActivity, useCatalystStats } from "./catalyst-queries.ts";

// The chart library travels in this chunk alone: nobody but an admin on this tab downloads it.
const ActivityChart = lazyComponent(() => import("./activity-chart.tsx"), "ActivityChart");

interface StatCard {
  title: string;
  value: (stats: CatalystStats) => number;
  note?: (stats: CatalystStats) => string;
}

const LOAD_ERROR = "Error loading dashboard statistics.";

const cards: StatCard[] = [
  {
    title: "Total Users",
    value: (s) => s.totalUsers,
    note: (s) => `${s.newUsersMonth} new this month`,
  },
  { title: "Total Prisms", value: (s) => s.totalPrisms },
  { title: "Total Likes", value: (s) => s.totalHearts },
  { title: "Total Annotations", value: (s) => s.totalAnnotations },
  { title: "Active Today", value: (s) => s.activeUsersToday, note: () => "last 24 hours" },
  { title: "Active This Week", value: (s) => s.activeUsersWeek, note: () => "last 7 days" },
  { title: "New Today", value: (s) => s.newUsersToday, note: () => "sign-ups, last 24 hours" },
  { title: "New This Week", value: (s) => s.newUsersWeek, note: () => "sign-ups, last 7 days" },
];

export function Overview() {
  const stats = useCatalystStats();
  const activity = useCatalystActivity();
  return (
    <div className="space-y-8">
      {stats.isPending ? (
        <PageSpinner />
      ) : stats.isError ? (
        <LoadError
          message={LOAD_ERROR}
          onRetry={() => void stats.refetch()}
          retrying={stats.isFetching}
        />
      ) : (
        <ul aria-label="Statistics" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          {cards.map((card) => (
            <li key={card.title}>
              {/* A figure and its name, as a term and its value (not a heading and a text). */}
              <Card className="h-full p-4">
                <dl>
                  <dt className="text-sm text-muted-foreground">{card.title}</dt>
                  <dd className="mt-1 text-2xl font-semibold tabular-nums">
                    {card.value(stats.data)}
                  </dd>
                  {card.note ? (
                    <dd className="mt-1 text-xs text-muted-foreground">{card.note(stats.data)}</dd>
                  ) : null}
                </dl>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Card className="p-4">
        <h2 className="mb-3 text-lg font-semibold">Activity</h2>
        {activity.isError ? (
          <LoadError
            message={LOAD_ERROR}
            onRetry={() => void activity.refetch()}
            retrying={activity.isFetching}
          />
        ) : activity.data ? (
          <Suspense fallback={<PageSpinner />}>
            <ActivityChart days={activity.data} />
          </Suspense>
        ) : (
          <PageSpinner />
        )}
      </Card>
    </div>
  );
}
