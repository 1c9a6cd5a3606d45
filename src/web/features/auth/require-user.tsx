// Guards a page for signed-in members (others go to /sign-in, the page remembered), or for admins
// (members are told they may not, and go to /).
import { type ReactNode, useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { rememberPage } from "../../lib/storage.ts";
import { toastError } from "../../lib/toast.ts";
import { useCurrentUser } from "./auth-queries.ts";

export function RequireUser({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!isLoading && !user) {
      rememberPage(location.pathname + location.search);
      navigate("/sign-in", { replace: true });
    }
  }, [isLoading, user, location.pathname, location.search, navigate]);
  if (isLoading || !user) return <PageSpinner />;
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
  const navigate = useNavigate();
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
