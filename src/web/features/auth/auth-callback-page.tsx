// /auth/callback: where Google sign-in returns; refreshes the member, then goes home, or, when the
// sign-in created the account (`?welcome=1`), to the new member's own page to write a first prism.
import { useEffect, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { authMessages } from "../../../contract/auth.ts";
import { Button } from "../../components/ui/button.tsx";
import { firstStepsState } from "../../lib/first-steps.ts";
import { useRefetchCurrentUser } from "./auth-queries.ts";

const REDIRECT_DELAY_MS = 1000;

export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const refetchCurrentUser = useRefetchCurrentUser();
  const error = params.get("error");
  const welcome = params.get("welcome") === "1";
  const [failed, setFailed] = useState(error !== null);

  useEffect(() => {
    if (error !== null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    refetchCurrentUser()
      .then((user) => {
        if (cancelled) return;
        timer = setTimeout(
          () =>
            welcome && user
              ? navigate(`/${user.username}`, { replace: true, state: firstStepsState })
              : navigate("/", { replace: true }),
          REDIRECT_DELAY_MS,
        );
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [error, welcome, navigate, refetchCurrentUser]);

  return (
    <section
      className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center"
      aria-live="polite"
    >
      {failed ? (
        <>
          <h1 className="text-2xl font-semibold">Authentication Failed</h1>
          <p className="mt-3 text-muted-foreground">
            {error === "google-auth-failed"
              ? "We couldn't sign you in with Google. Please try again."
              : error === "google-account-exists"
                ? "An account with this e-mail already exists. Sign in with your password, then connect Google in Profile Settings."
                : error === "google-not-configured"
                  ? authMessages.googleNotConfigured
                  : "There was a problem signing you in. Please try again."}
          </p>
          <Button asChild className="mt-8">
            <Link to="/auth">Back to sign in</Link>
          </Button>
        </>
      ) : (
        <>
          <span
            className="size-10 animate-spin rounded-full border-4 border-muted border-t-primary"
            aria-hidden="true"
          />
          <p className="mt-6 text-lg">Completing authentication...</p>
        </>
      )}
    </section>
  );
}
