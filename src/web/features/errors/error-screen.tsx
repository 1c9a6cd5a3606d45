// What the error pages share: the status in large type, what went wrong, a way back and Home;
// their head keeps them out of search engines.
import { Link } from "wouter";
import { Button } from "../../components/ui/button.tsx";
import { PageHead } from "../../lib/page-head.tsx";

export function ErrorScreen({
  statusCode,
  title,
  description,
  message,
  back,
}: {
  statusCode: number;
  title: string;
  description: string;
  /** The server's own words, when there are any. */
  message?: string;
  /** The outline button beside Home. */
  back: { label: string; onClick: () => void };
}) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <PageHead title={`${title} | Prism`} robots="noindex, follow" />
      <div className="prism-gradient-text text-7xl font-bold">{statusCode}</div>
      <h1 className="mt-4 text-2xl font-semibold">{title}</h1>
      <p className="mt-3 text-muted-foreground">{description}</p>
      {message ? (
        <p className="mt-4 rounded-lg bg-muted px-3 py-2 font-mono text-xs text-muted-foreground">
          {message}
        </p>
      ) : null}
      <div className="mt-8 flex gap-3">
        <Button variant="outline" onClick={back.onClick}>
          {back.label}
        </Button>
        <Button asChild>
          <Link to="/">Home</Link>
        </Button>
      </div>
    </section>
  );
}
