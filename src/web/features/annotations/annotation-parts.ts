// The dialog a reader responds in and the Responses sidebar, loaded when first opened: a page
// carries none of their code until someone responds or opens the responses.
import { onFirstOpen } from "../../components/ui/on-first-open.tsx";

export const AnnotationDialog = onFirstOpen(
  () => import("./annotation-dialog.tsx").then((m) => m.AnnotationDialog),
  (props) => props.target !== null,
);

export const ResponsesSidebar = onFirstOpen(
  () => import("./responses-sidebar.tsx").then((m) => m.ResponsesSidebar),
  (props) => props.open,
);
