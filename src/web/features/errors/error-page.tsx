// /error: shows the error context a failed request saved, then forgets it.
import { useState } from "react";
import { takeErrorContext } from "../../lib/storage.ts";
import { ErrorScreen } from "./error-screen.tsx";

export function ErrorPage() {
  const [context] = useState(() => takeErrorContext() ?? {});
  return (
    <ErrorScreen
      statusCode={context.statusCode ?? 500}
      title={context.title ?? "Something went wrong"}
      description={context.description ?? "An unexpected error occurred. Please try again later."}
      message={context.message}
      back={{ label: "Retry", onClick: () => window.location.reload() }}
    />
  );
}
