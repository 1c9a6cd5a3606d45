// The owner's parts of Resonance (the map of a prism, the "This week" panel), loaded as the
// owner's other parts are (prisms/owner-parts.ts): only when the owner's page shows one, so a
// visitor's page carries none of their code.
import { lazy } from "react";
import { loadPageScript } from "../../app/stale-scripts.ts";

export const ResonanceMap = lazy(() =>
  loadPageScript(() => import("./resonance-map.tsx")).then((m) => ({
    default: m.ResonanceMap,
  })),
);

export const ThisWeekPanel = lazy(() =>
  loadPageScript(() => import("./this-week-panel.tsx")).then((m) => ({
    default: m.ThisWeekPanel,
  })),
);
