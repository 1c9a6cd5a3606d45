// Every page's frame: header, the page in an error boundary, footer, and the toaster.
import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useEffect } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { Toaster } from "sonner";
import { PageSpinner } from "../../features/auth/require-user.tsx";
import { useCurrentUser } from "../../features/auth/use-current-user.ts";
import { setErrorNavigator } from "../../lib/api.ts";
import { connectLive } from "../../lib/live.ts";
import { takeFlashToast } from "../../lib/storage.ts";
import { toastDuration, toastSuccess } from "../../lib/toast.ts";
import { ErrorBoundary } from "./error-boundary.tsx";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";

export function Layout() {
  const navigate = useNavigate();
  const location = useLocation();

  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const userId = user?.id ?? null;

  useEffect(() => setErrorNavigator(navigate), [navigate]);
  // One stream per tab, reopened when the member signs in or out (notifications follow the member).
  // biome-ignore lint/correctness/useExhaustiveDependencies: userId is the reason to reconnect
  useEffect(() => connectLive(queryClient), [queryClient, userId]);
  useEffect(() => {
    const flash = takeFlashToast();
    if (flash) toastSuccess(flash.title, flash.description);
  }, []);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <Header />
      <main id="main" className="flex-1">
        <ErrorBoundary key={location.pathname}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      <Toaster
        visibleToasts={1}
        duration={toastDuration.default}
        closeButton
        position="bottom-right"
        toastOptions={{
          classNames: {
            toast: "!rounded-xl !border-border !shadow-lg",
            title: "!text-foreground",
            description: "!text-muted-foreground",
            error: "!border-destructive/50",
          },
        }}
      />
    </div>
  );
}
