// Guards a page for signed-in members: others go to /sign-in, the page remembered.
import { type ReactNode, useEffect } from "react";
import { useLocation, useNavigate } from "react-router";
import { PageSpinner } from "../../components/ui/spinner.tsx";
import { rememberPage } from "../../lib/storage.ts";
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
