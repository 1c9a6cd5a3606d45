// The dialog a reader responds in and the Responses sidebar, loaded when first opened: a page
// carries none of their code until someone responds or opens the responses.
import { lazyComponent } from "../../app/stale-scripts.ts";
import { onFirstOpen } from "../../components/ui/on-first-open.tsx";

export const AnnotationDialog = onFirstOpen(
  lazyComponent(() => import("./annotation-dialog.tsx"), "AnnotationDialog"),
  (props) => props.target !== null,
);

export const ResponsesSidebar = onFirstOpen(
  lazyComponent(() => import("./responses-sidebar.tsx"), "ResponsesSidebar"),
  (props) => props.open,
);
