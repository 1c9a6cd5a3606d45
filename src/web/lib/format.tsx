// Times as pages write them: in words ("5 minutes ago") and as dates, in the reader's language and
// time zone, from their clock. The server knows none of these: it writes times in English, in
// UTC, as of the moment it rendered the page; the browser writes them the same way while it takes
// the server's HTML over (the two must match), then in the reader's own.
import { createContext, useContext } from "react";
import { useHydrated } from "./hydration.ts";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** The language and time zone of the server's times. */
const serverLocale = "en";
const serverTimeZone = "UTC";

type Writer = "reader" | "server";

// Made on first use: the first Intl object a page makes loads the browser's language data, a long
// task on a phone, which a page that shows no time never needs.
const formats: Partial<
  Record<Writer, { inWords: Intl.RelativeTimeFormat; asDate: Intl.DateTimeFormat }>
> = {};

function formatsFor(writer: Writer) {
  const [locale, timeZone] = writer === "server" ? [serverLocale, serverTimeZone] : [];
  formats[writer] ??= {
    inWords: new Intl.RelativeTimeFormat(locale, { numeric: "auto" }),
    asDate: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }),
  };
  return formats[writer];
}

/** When the server rendered the page, the present its times are written from (none in a page the browser rendered alone). */
export const RenderedAt = createContext<number | null>(null);

function parse(iso: string | null | undefined): number {
  return iso ? Date.parse(iso) : Number.NaN;
}

function relativeTime(time: number, now: number, format: Intl.RelativeTimeFormat): string {
  const seconds = Math.round((time - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** "5 minutes ago", "yesterday", "just now"; the fallback when the time is missing or invalid. */
export function RelativeTime({
  iso,
  fallback = "Unknown time",
  className,
}: {
  iso: string | null | undefined;
  fallback?: string;
  className?: string;
}) {
  const reader = useHydrated();
  const renderedAt = useContext(RenderedAt);
  const time = parse(iso);
  const text = Number.isNaN(time)
    ? fallback
    : reader
      ? relativeTime(time, Date.now(), formatsFor("reader").inWords)
      : relativeTime(time, renderedAt ?? Date.now(), formatsFor("server").inWords);
  return (
    <time dateTime={iso ?? undefined} className={className}>
      {text}
    </time>
  );
}

/** "22 Nov 2026, 15:31"; the fallback when the time is missing. */
export function DateTime({
  iso,
  fallback = "Never",
}: {
  iso: string | null | undefined;
  fallback?: string;
}) {
  const reader = useHydrated();
  const time = parse(iso);
  if (Number.isNaN(time)) return <>{fallback}</>;
  return (
    <time dateTime={iso ?? undefined}>
      {formatsFor(reader ? "reader" : "server").asDate.format(time)}
    </time>
  );
}
