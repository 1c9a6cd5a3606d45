// Renders a component the way the app does: inside a QueryClientProvider (with the app's query
// defaults, but a fresh client per test, or one the test has filled as a server-rendered page's
// data fills it) and next to the toaster, so toasts can be read.
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { Toaster } from "sonner";
import { createQueryClient } from "../lib/query.ts";

export function renderWithQueries(ui: ReactElement, queryClient = createQueryClient()) {
  const view = render(
    <QueryClientProvider client={queryClient}>
      {ui}
      <Toaster visibleToasts={1} />
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}
