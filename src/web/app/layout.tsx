// Every page's frame: header, the page in an error boundary, footer, and the toaster.
import { type ReactNode, Suspense, useEffect } from "react";
import { useLocation } from "wouter";
import { PageSpinner } from "../components/ui/spinner.tsx";
import { useCurrentUser } from "../features/auth/auth-queries.ts";
import { setErrorNavigator } from "../lib/api.ts";
import { whenIdle } from "../lib/hydration.ts";
import { takeFlashToast } from "../lib/storage.ts";
import { toastDuration, toastSuccess, useToastsWanted } from "../lib/toast.ts";
import { useLiveUpdates } from "../live/stream.ts";
import { ConnectionNotice } from "./connection-notice.tsx";
import { ErrorBoundary } from "./error-boundary.tsx";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { lazyComponent } from "./stale-scripts.ts";

const Toaster = lazyComponent(() => import("sonner"), "Toaster");

export function Layout({ children }: { children: ReactNode }) {
  const [path, navigate] = useLocation();

  const { user } = useCurrentUser();
  const toastsWanted = useToastsWanted();

  useEffect(() => setErrorNavigator(navigate), [navigate]);
  useLiveUpdates(user?.id ?? null);
  useEffect(
    () =>
      whenIdle(() => {
        const flash = takeFlashToast();
        if (flash) toastSuccess(flash.title, flash.description);
      }),
    [],
  );

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <Header />
      <ConnectionNotice />
      <main id="main" className="flex-1">
        <ErrorBoundary key={path}>
          <Suspense fallback={<PageSpinner />}>{children}</Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
      {toastsWanted ? (
        <Suspense fallback={null}>
          <Toaster
            visibleToasts={1}
            duration={toastDuration.short}
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
        </Suspense>
      ) : null}
    </div>
  );
}
