// /error: shows the error context a failed request saved, then forgets it.
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { takeErrorContext } from "../../lib/storage.ts";

export function ErrorPage() {
  const [context] = useState(() => takeErrorContext() ?? {});
  const statusCode = context.statusCode ?? 500;
  const title = context.title ?? "Something went wrong";
  const description =
    context.description ?? "An unexpected error occurred. Please try again later.";
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>{`${title} | Prism`}</title>
      <meta name="robots" content="noindex, follow" />
      <p className="prism-gradient-text text-7xl font-bold">{statusCode}</p>
      <h1 className="mt-4 text-2xl font-semibold">{title}</h1>
      <p className="mt-3 text-muted-foreground">{description}</p>
      {context.message ? (
        <p className="mt-4 rounded-lg bg-muted px-3 py-2 font-mono text-xs text-muted-foreground">
          {context.message}
        </p>
      ) : null}
      <div className="mt-8 flex gap-3">
        <Button variant="outline" onClick={() => window.location.reload()}>
          Retry
        </Button>
        <Button asChild>
          <Link to="/">Home</Link>
        </Button>
      </div>
    </section>
  );
}
