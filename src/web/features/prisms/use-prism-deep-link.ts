// Deep links into a profile: /{username}/{prismSlug} or ?prism={id} open that section, scroll to
// it after 700 ms, and drop the query parameter from the address 400 ms later.
import { useEffect, useRef } from "react";
import { useParams, useSearchParams } from "react-router";
import type { Prism } from "../../../contract/prisms.ts";
import { slugify } from "../../../contract/slug.ts";

export const DEEP_LINK_SCROLL_MS = 700;
export const DEEP_LINK_CLEAR_MS = 400;

export function usePrismDeepLink(prisms: Prism[] | undefined, open: (prismId: number) => void) {
  const { prismSlug } = useParams();
  const [params, setParams] = useSearchParams();
  const handled = useRef(new Set<string>());
  const rawId = params.get("prism");
  const openRef = useRef(open);
  openRef.current = open;
  // Timers outlive re-renders (a poll may bring a new list mid-scroll); only leaving the page stops them.
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(
    () => () => {
      for (const timer of timers.current) clearTimeout(timer);
    },
    [],
  );

  useEffect(() => {
    if (!prisms || (rawId === null && !prismSlug)) return;
    const key = `${prismSlug ?? ""}|${rawId ?? ""}`;
    if (handled.current.has(key)) return;
    handled.current.add(key).add(`${prismSlug ?? ""}|`);

    // A non-numeric id is ignored safely; a slug that matches nothing opens nothing.
    const byId =
      rawId !== null && /^\d{1,10}$/.test(rawId)
        ? prisms.find((p) => p.id === Number(rawId))
        : undefined;
    const bySlug = prismSlug
      ? prisms.find((p) => slugify(p.title) === prismSlug.toLowerCase())
      : undefined;
    const target = byId ?? bySlug;
    const clearParam = () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete("prism");
          return next;
        },
        { replace: true, preventScrollReset: true },
      );

    if (target) {
      openRef.current(target.id);
      timers.current.push(
        setTimeout(() => {
          document
            .getElementById(`prism-${target.id}`)
            ?.scrollIntoView({ behavior: "smooth", block: "start" });
          if (rawId !== null) timers.current.push(setTimeout(clearParam, DEEP_LINK_CLEAR_MS));
        }, DEEP_LINK_SCROLL_MS),
      );
    } else if (rawId !== null) {
      clearParam();
    }
  }, [prisms, rawId, prismSlug, setParams]);
}
