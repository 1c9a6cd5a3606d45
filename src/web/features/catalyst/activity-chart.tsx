// The Overview's chart of the last 30 days: sign-ups, prisms, hearts and annotations per day,
// drawn by uPlot. This module is its own chunk, loaded only when an admin opens the Overview; the
// numbers are also in a table for screen readers and for anyone who prefers them.
import { useEffect, useId, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { ActivityDay } from "../../../contract/catalyst.ts";

const HEIGHT = 260;

const series = [
  { key: "users", label: "Sign-ups", color: "#4f46e5" },
  { key: "prisms", label: "Prisms", color: "#0e7490" },
  { key: "hearts", label: "Hearts", color: "#e11d48" },
  { key: "annotations", label: "Annotations", color: "#b45309" },
] as const;

/** Seconds since the epoch at the start of a `YYYY-MM-DD` day (UTC). */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

export function ActivityChart({ days }: { days: ActivityDay[] }) {
  const holder = useRef<HTMLDivElement>(null);
  const captionId = useId();

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      days.map((d) => dayStart(d.day)),
      ...series.map(({ key }) => days.map((d) => d[key])),
    ];
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? t : "")) }],
        series: [
          { label: "Day" },
          ...series.map(({ label, color }) => ({ label, stroke: color, width: 2 })),
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: element.clientWidth, height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days]);

  return (
    <figure aria-labelledby={captionId} className="space-y-3">
      <figcaption id={captionId} className="text-sm font-medium">
        The last 30 days (UTC)
      </figcaption>
      <div ref={holder} aria-hidden="true" className="w-full" />
      <details className="text-sm">
        <summary className="cursor-pointer rounded-sm text-muted-foreground">
          Show the numbers
        </summary>
        <div className="mt-2 max-h-72 overflow-y-auto">
          <table className="w-full text-left tabular-nums">
            <caption className="sr-only">Sign-ups, prisms, hearts and annotations per day</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Day
                </th>
                {series.map(({ label }) => (
                  <th key={label} scope="col" className="py-1 pr-3 font-medium">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day} className="border-t border-border">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {d.day}
                  </th>
                  {series.map(({ key }) => (
                    <td key={key} className="py-1 pr-3">
                      {d[key]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
