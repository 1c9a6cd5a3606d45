// Guards a page for signed-in members (others go to /sign-in, the page remembered; when the member
// cannot be loaded at all, the /error page says so), or for admins (members are told they may
// not, and go to /).
import { type ReactNode, useEffect } from "react";
import { useLocation } from "wouter";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { showErrorPage } from "../../lib/api.ts";
import { usePageAddress } from "../../lib/router.tsx";
import { rememberPage } from "../../lib/storage.ts";
import { toastError } from "../../lib/toast.ts";
import { useCurrentUser } from "./auth-queries.ts";

export function RequireUser({
  children,
  fallback = <PageSpinner />,
}: {
  children: ReactNode;
  /** What shows while the member loads (the page's skeleton, say). */
  fallback?: ReactNode;
}) {
  const { user, isLoading, query } = useCurrentUser();
  const page = usePageAddress();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (isLoading || user) return;
    // Not knowing who is signed in (the server failed or cannot be reached) is not signed out.
    if (query.isError && showErrorPage(query.error)) return;
    rememberPage(page);
    navigate("/sign-in", { replace: true });
  }, [isLoading, user, query.isError, query.error, page, navigate]);
  if (isLoading || !user) return <>{fallback}</>;
  return <>{children}</>;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  return (
    <RequireUser>
      <AdminOnly>{children}</AdminOnly>
    </RequireUser>
  );
}

function AdminOnly({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  const [, navigate] = useLocation();
  const allowed = user?.isAdmin === true;
  useEffect(() => {
    if (!allowed) {
      toastError("Access Denied", "You don't have permission to access this page.");
      navigate("/", { replace: true });
    }
  }, [allowed, navigate]);
  if (!allowed) return <PageSpinner />;
  return <>{children}</>;
}
