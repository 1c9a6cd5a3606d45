// Deep links into a profile: /{username}/{prismSlug} or ?prism={id} open that section, scroll to
// it after 700 ms, and drop the query parameter from the address 400 ms later.
import { useCallback, useEffect, useRef } from "react";
import { useParams, useSearchParams } from "wouter";
import type { Prism } from "../../../contract/prisms.ts";
import { slugify } from "../../../contract/slug.ts";

const DEEP_LINK_SCROLL_MS = 700;
const DEEP_LINK_CLEAR_MS = 400;

/**
 * A query parameter that opens something on a profile: its value, dropping it from the address,
 * and revealing a prism's section (scrolled to after 700 ms, the parameter dropped 400 ms later).
 */
export function useDeepLinkParam(name: string) {
  const [params, setParams] = useSearchParams();
  // Timers outlive re-renders (a poll may bring a new list mid-scroll); only leaving the page stops them.
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(
    () => () => {
      for (const timer of timers.current) clearTimeout(timer);
    },
    [],
  );

  const clear = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams, name],
  );

  const reveal = useCallback(
    (prismId: number, thenClear: boolean) => {
      timers.current.push(
        setTimeout(() => {
          document
            .getElementById(`prism-${prismId}`)
            ?.scrollIntoView({ behavior: "smooth", block: "start" });
          if (thenClear) timers.current.push(setTimeout(clear, DEEP_LINK_CLEAR_MS));
        }, DEEP_LINK_SCROLL_MS),
      );
    },
    [clear],
  );

  return { value: params.get(name), clear, reveal };
}

/**
 * The prism a deep link names: `?prism={id}` (a non-numeric id names none), else the first whose
 * slug is `prismSlug`.
 */
export function deepLinkedPrism(
  prisms: readonly Prism[],
  prismSlug: string | undefined,
  rawId: string | null,
): Prism | undefined {
  const byId =
    rawId !== null && /^\d{1,10}$/.test(rawId)
      ? prisms.find((p) => p.id === Number(rawId))
      : undefined;
  const slug = prismSlug?.toLowerCase();
  return byId ?? (slug ? prisms.find((p) => slugify(p.title) === slug) : undefined);
}

export function usePrismDeepLink(prisms: Prism[] | undefined, open: (prismId: number) => void) {
  const { prismSlug } = useParams();
  const { value: rawId, clear, reveal } = useDeepLinkParam("prism");
  const handled = useRef(new Set<string>());
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    if (!prisms || (rawId === null && !prismSlug)) return;
    const key = `${prismSlug ?? ""}|${rawId ?? ""}`;
    if (handled.current.has(key)) return;
    handled.current.add(key).add(`${prismSlug ?? ""}|`);

    // A non-numeric id is ignored safely; a slug that matches nothing opens nothing.
    const target = deepLinkedPrism(prisms, prismSlug, rawId);

    if (target) {
      openRef.current(target.id);
      reveal(target.id, rawId !== null);
    } else if (rawId !== null) {
      clear();
    }
  }, [prisms, rawId, prismSlug, clear, reveal]);
}
