// Renders a component the way the app does: inside a QueryClientProvider (with the app's query
// defaults, but a fresh client per test) and next to the toaster, so toasts can be read.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { Toaster } from "sonner";

export function renderWithQueries(ui: ReactElement) {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { staleTime: Number.POSITIVE_INFINITY, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  const view = render(
    <QueryClientProvider client={queryClient}>
      {ui}
      <Toaster visibleToasts={1} />
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}
