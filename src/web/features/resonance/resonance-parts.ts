// The owner's parts of Resonance (the map of a prism, the "This week" panel), loaded as the
// owner's other parts are (prisms/owner-parts.ts): only when the owner's page shows one, so a
// visitor's page carries none of their code.
import { lazyComponent } from "../../app/stale-scripts.ts";

export const ResonanceMap = lazyComponent(() => import("./resonance-map.tsx"), "ResonanceMap");

export const ThisWeekPanel = lazyComponent(() => import("./this-week-panel.tsx"), "ThisWeekPanel");
