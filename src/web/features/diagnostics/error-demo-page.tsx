// /error-demo: shows how Prism handles a missing resource, a server failure and a crashing component.

import { Bug, FileQuestion, Send, ServerCrash } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { ErrorBoundary } from "../../app/error-boundary.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import {
  type ApiTestResult,
  type SimulatedFailure,
  useApiTest,
  useSimulatedFailure,
} from "./diagnostics-queries.ts";
import { ToolCard } from "./tool-card.tsx";

const codeClass = "rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em]";

/** Throws while rendering, as a buggy component would. */
function CrashingComponent(): ReactNode {
  throw new Error("A simulated component crash");
}

const failures: {
  which: SimulatedFailure;
  icon: ReactNode;
  title: string;
  description: string;
  label: string;
}[] = [
  {
    which: "not-found",
    icon: <FileQuestion />,
    title: "Not found (404)",
    description: "Asks the server for a resource that does not exist. You land on the error page.",
    label: "Simulate 404 Error",
  },
  {
    which: "server-error",
    icon: <ServerCrash />,
    title: "Server error (500)",
    description: "Calls an endpoint that always fails on the server. You land on the error page.",
    label: "Simulate Server Error",
  },
];

export function ErrorDemoPage() {
  const [crashed, setCrashed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // The API client itself sends the visitor to /error for a 404 or a 5xx answer.
  const simulate = useSimulatedFailure();

  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Error handling demo</h1>
      <p className="mt-2 max-w-2xl text-muted-foreground">
        See what a visitor sees when something goes wrong: a resource that does not exist, a server
        that fails, or a part of the page that crashes.
      </p>

      <div className="mt-8 grid gap-6 md:grid-cols-3">
        {failures.map(({ which, icon, title, description, label }) => (
          <ToolCard key={which} stacked icon={icon} title={title} description={description}>
            <Button disabled={simulate.isPending} onClick={() => simulate.mutate(which)}>
              {simulate.isPending && simulate.variables === which ? "Requesting..." : label}
            </Button>
          </ToolCard>
        ))}
        <ToolCard
          stacked
          icon={<Bug />}
          title="Component crash"
          description="Renders a component that throws. Only its region fails; the rest of the page keeps working."
        >
          <div className="flex flex-wrap gap-3">
            <Button variant="destructive" disabled={crashed} onClick={() => setCrashed(true)}>
              Crash a Component
            </Button>
            {crashed ? (
              <Button
                variant="outline"
                onClick={() => {
                  setCrashed(false);
                  setAttempt((n) => n + 1);
                }}
              >
                Reset Demo
              </Button>
            ) : null}
          </div>
        </ToolCard>
      </div>

      <ErrorBoundary key={attempt}>
        {crashed ? (
          <CrashingComponent />
        ) : (
          <p className="mt-6 rounded-xl border border-dashed border-border px-4 py-3 text-sm text-muted-foreground">
            The demo component is working normally.
          </p>
        )}
      </ErrorBoundary>

      <ApiTester />
    </div>
  );
}

function ApiTester() {
  const [path, setPath] = useState("/api/demo/not-found");
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<ApiTestResult | null>(null);
  const apiTest = useApiTest(setResult);
  const sending = apiTest.isPending;
  const headingId = useId();

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!path.startsWith("/api/")) {
      setError("Enter an API path starting with /api/");
      return;
    }
    setError(undefined);
    apiTest.mutate(path);
  };

  return (
    <Card className="mt-10 p-6">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold">
          API test
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Send a GET request and see its answer here instead of on the error page. Try{" "}
          <code className={codeClass}>/api/demo/not-found</code>,{" "}
          <code className={codeClass}>/api/demo/server-error</code> or{" "}
          <code className={codeClass}>/api/demo/success</code>.
        </p>
        <form
          noValidate
          onSubmit={send}
          className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-end"
        >
          <div className="flex-1">
            <Field
              label="API path"
              name="path"
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              value={path}
              error={error}
              onChange={(event) => setPath(event.target.value)}
            />
          </div>
          <Button type="submit" disabled={sending}>
            <Send aria-hidden="true" />
            {sending ? "Sending..." : "Send"}
          </Button>
        </form>
        <div role="status" aria-live="polite" aria-label="API test response">
          {result ? (
            <div className="mt-5">
              <p className="text-sm font-medium">
                Status:{" "}
                <span
                  className={
                    result.status >= 200 && result.status < 300
                      ? "text-emerald-800"
                      : "text-destructive"
                  }
                >
                  {result.status === 0 ? "no answer" : result.status}
                </span>
              </p>
              <pre className="mt-2 whitespace-pre-wrap break-words rounded-xl border border-border bg-muted p-4 font-mono text-sm">
                {JSON.stringify(result.body, null, 2)}
              </pre>
            </div>
          ) : null}
        </div>
      </section>
    </Card>
  );
}
