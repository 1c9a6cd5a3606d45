// /error: shows the error context a failed request saved, then forgets it; Retry loads the page
// that failed again.
import { useEffect, useState } from "react";
import { useHydrated } from "../../lib/hydration.ts";
import { clearErrorContext, readErrorContext } from "../../lib/storage.ts";
import { ErrorScreen } from "./error-screen.tsx";

export function ErrorPage() {
  // Read while rendering (React may render twice before it shows the page), forgotten once shown.
  // The browser alone keeps it: the page the server rendered says what went wrong once hydrated.
  const [stored] = useState(() => readErrorContext() ?? {});
  const context = useHydrated() ? stored : {};
  useEffect(() => clearErrorContext(), []);
  return (
    <ErrorScreen
      statusCode={context.statusCode ?? 500}
      title={context.title ?? "Something went wrong"}
      description={context.description ?? "An unexpected error occurred. Please try again later."}
      message={context.message}
      back={{
        label: "Retry",
        onClick: () =>
          context.retryPath ? window.location.assign(context.retryPath) : window.location.reload(),
      }}
    />
  );
}
