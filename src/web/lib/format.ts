// Formatting shared by pages: relative times and dates in the reader's language.
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const formatter = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "5 minutes ago", "yesterday", "just now"; the fallback when the time is missing or invalid. */
export function relativeTime(
  iso: string | null | undefined,
  fallback = "Unknown time",
  now = Date.now(),
): string {
  const time = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(time)) return fallback;
  const seconds = Math.round((time - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return formatter.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "22 Nov 2026, 15:31" in the reader's language; the fallback when the time is missing. */
export function formatDateTime(iso: string | null | undefined, fallback = "Never"): string {
  const time = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(time) ? fallback : dateTime.format(time);
}
