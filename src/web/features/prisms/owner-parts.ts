// The parts of a profile only its owner uses (the prism form, each prism's controls, History and
// the confirmations), loaded when the owner's page first shows one: a visitor's page carries none
// of their code. Each is rendered inside a Suspense boundary of its own: the server waits for it
// and renders it whole, and the browser hydrates the rest of the page at once and that part once
// its code is here. Their scripts load as a page's do: one that fails (offline, or gone after a
// new version) waits for the connection or reloads the page, rather than showing "Component Error".
import { lazyComponent } from "../../app/stale-scripts.ts";
import { onFirstOpen } from "../../components/ui/on-first-open.tsx";

export const PrismForm = lazyComponent(() => import("./prism-form.tsx"), "PrismForm");

export const PrismOwnerControls = lazyComponent(
  () => import("./prism-owner-controls.tsx"),
  "PrismOwnerControls",
);

/** A prism's History, loaded when first opened. */
export const PrismHistory = onFirstOpen(
  lazyComponent(() => import("./prism-history.tsx"), "PrismHistory"),
  (props) => props.open,
);

/** The owner's confirmations (deleting a prism, resetting its hearts), loaded when first opened. */
export const ConfirmDialog = onFirstOpen(
  lazyComponent(() => import("../../components/ui/alert-dialog.tsx"), "ConfirmDialog"),
  (props) => props.open === true,
);
