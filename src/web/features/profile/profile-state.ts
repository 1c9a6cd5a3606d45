// What a member's page remembers while it is open, named for what its readers and its owner do:
// which prism is open and whether the owner is editing, the owner's resonance map, a visitor's
// highlights, the Responses sidebar and the dialog to respond, and the owner's History.
import { useEffect, useRef, useState } from "react";
import type { Annotation } from "../../../contract/annotations.ts";
import type { Prism } from "../../../contract/prisms.ts";
import { whenIdle } from "../../lib/hydration.ts";
import { setHighlightsControl } from "../../lib/page-controls.ts";
import { storageKeys } from "../../lib/storage.ts";
import type { AnnotationTarget } from "../annotations/annotation-dialog.tsx";
import { useAnnotationLinks } from "../annotations/use-annotation-links.ts";
import { usePrismDeepLink } from "../prisms/use-prism-deep-link.ts";

/** Which prism is open, and whether the owner is editing their page or viewing it. */
export function useOpenPrism(prisms: Prism[] | undefined, isOwner: boolean) {
  // The owner starts in edit mode; opening a deep link switches to view mode.
  const [editPreference, setEditPreference] = useState<boolean | null>(null);
  const editMode = isOwner && (editPreference ?? true);
  // Until the visitor opens or closes a section, the first one is open.
  const [chosen, setChosen] = useState<{ id: number | null } | null>(null);
  const activeId = chosen ? chosen.id : (prisms?.[0]?.id ?? null);

  /** Opens a prism to be read, as a link to it does: its owner views it rather than edits it. */
  function readPrism(prismId: number) {
    setChosen({ id: prismId });
    if (isOwner) setEditPreference(false);
  }
  usePrismDeepLink(prisms, readPrism);

  return {
    editMode,
    setEditMode: (editing: boolean) => setEditPreference(editing),
    activeId,
    setActiveId: (id: number | null) => setChosen({ id }),
    readPrism,
  };
}

/** The owner's resonance map, off until they turn it on; "This week" turns it on for one prism. */
export function useResonanceMap(openPrism: (prismId: number) => void) {
  const [on, setOn] = useState(false);
  const [shownOnMap, setShownOnMap] = useState<{ id: number } | null>(null);
  function showOnMap(prismId: number) {
    setOn(true);
    openPrism(prismId);
    setShownOnMap({ id: prismId });
  }
  // Once that prism is open, it comes into view with the keyboard's focus on its title.
  useEffect(() => {
    if (!shownOnMap) return;
    const section = document.getElementById(`prism-${shownOnMap.id}`);
    section?.querySelector<HTMLButtonElement>("button[aria-expanded]")?.focus();
    section?.scrollIntoView({ block: "start" });
    setShownOnMap(null);
  }, [shownOnMap]);
  return { on, setOn, showOnMap };
}

function readHighlightsPreference(): boolean {
  try {
    return localStorage.getItem(storageKeys.highlights) === "true";
  } catch {
    return false;
  }
}

/**
 * Highlights are for visitors: their choice is remembered and starts off, and the site header's
 * small-screen menu offers the same toggle. Owners see the count, and their responses in the
 * Responses sidebar.
 */
export function useHighlights(isOwner: boolean, approvedCount: number) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  // Read once mounted: the page may come rendered from the server, which knows no preference. A
  // choice the visitor made meanwhile stands.
  useEffect(() => whenIdle(() => setChosen((choice) => choice ?? readHighlightsPreference())), []);
  const on = !isOwner && (chosen ?? false);
  function toggle() {
    setChosen(!on);
    try {
      localStorage.setItem(storageKeys.highlights, String(!on));
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this page only.
    }
  }

  const toggleRef = useRef(toggle);
  toggleRef.current = toggle;
  const offered = !isOwner && approvedCount > 0;
  useEffect(() => {
    setHighlightsControl(
      offered ? { count: approvedCount, on, toggle: () => toggleRef.current() } : null,
    );
  }, [offered, approvedCount, on]);
  useEffect(() => () => setHighlightsControl(null), []);

  return { offered, on, toggle };
}

/**
 * The dialog to respond to a selected passage, and the Responses sidebar of one prism, focused on
 * one response when a link, a notification or a new response names it.
 */
export function useResponses(
  username: string,
  prisms: Prism[] | undefined,
  readPrism: (prismId: number) => void,
) {
  const [target, setTarget] = useState<AnnotationTarget | null>(null);
  const [sidebar, setSidebar] = useState<{ prismId: number; focusId: number | null } | null>(null);

  function openAnnotation(prismId: number, annotationId: number) {
    readPrism(prismId);
    setSidebar({ prismId, focusId: annotationId });
  }
  useAnnotationLinks(username, prisms !== undefined, openAnnotation);

  return {
    target,
    respond: setTarget,
    /** The response just written, shown in its prism's sidebar. */
    responded(annotation: Annotation) {
      setTarget(null);
      setSidebar({ prismId: annotation.prismId, focusId: annotation.id });
    },
    closeDialog: () => setTarget(null),
    sidebar,
    sidebarPrism: prisms?.find((p) => p.id === sidebar?.prismId),
    openSidebar: (prismId: number) => setSidebar({ prismId, focusId: null }),
    closeSidebar: () => setSidebar(null),
    openAnnotation,
  };
}

/**
 * The owner's History of one prism, at its current version or at a response's; each opening
 * starts afresh, and closes the Responses sidebar.
 */
export function usePrismHistory(prisms: Prism[] | undefined, closeSidebar: () => void) {
  const [history, setHistory] = useState<{
    prismId: number;
    number: number | null;
    opening: number;
    open: boolean;
  } | null>(null);
  function openHistory(prismId: number, number: number | null) {
    closeSidebar();
    setHistory((last) => ({ prismId, number, opening: (last?.opening ?? 0) + 1, open: true }));
  }
  return {
    history,
    historyPrism: prisms?.find((p) => p.id === history?.prismId),
    openHistory,
    setOpen(open: boolean) {
      if (history) setHistory({ ...history, open });
    },
  };
}
