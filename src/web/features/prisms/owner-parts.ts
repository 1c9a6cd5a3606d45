// The parts of a profile only its owner uses (the prism form and each prism's controls), loaded
// when the owner's page first shows one: a visitor's page carries none of their code. Each is
// rendered inside a Suspense boundary of its own: the server waits for it and renders it whole,
// and the browser hydrates the rest of the page at once and that part once its code is here.
// Their scripts load as a page's do: one that fails (offline, or gone after a new version)
// waits for the connection or reloads the page, rather than showing "Component Error".
import { lazy } from "react";
import { loadPageScript } from "../../app/stale-scripts.ts";
import { onFirstOpen } from "../../components/ui/on-first-open.tsx";

export const PrismForm = lazy(() =>
  loadPageScript(() => import("./prism-form.tsx")).then((m) => ({ default: m.PrismForm })),
);

export const PrismOwnerControls = lazy(() =>
  loadPageScript(() => import("./prism-owner-controls.tsx")).then((m) => ({
    default: m.PrismOwnerControls,
  })),
);

/** A prism's History, loaded when first opened. */
export const PrismHistory = onFirstOpen(
  () => import("./prism-history.tsx").then((m) => m.PrismHistory),
  (props) => props.open,
);

/** The owner's confirmations (deleting a prism, resetting its hearts), loaded when first opened. */
export const ConfirmDialog = onFirstOpen(
  () => import("../../components/ui/alert-dialog.tsx").then((m) => m.ConfirmDialog),
  (props) => props.open === true,
);
