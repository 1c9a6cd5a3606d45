// /debug: checks the database connection and the registration flow (rolled back) from the browser.

import { useMutation } from "@tanstack/react-query";
import { Database, Eraser, Play, RefreshCw, UserPlus } from "lucide-react";
import { type ChangeEvent, useId, useState } from "react";
import type { DiagnosticResult, RegistrationTestInput } from "../../../contract/diagnostics.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs.tsx";
import { ApiError, api } from "../../lib/api.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { ToolCard } from "./tool-card.tsx";

type Test =
  | { kind: "connectivity" }
  | { kind: "registration"; input: RegistrationTestInput }
  | { kind: "reset" };

/** A fresh, unused member for the registration test: the timestamp keeps it unique. */
function testMember(): RegistrationTestInput {
  const username = `test_${Date.now().toString(36)}`;
  return {
    username,
    email: `${username}@example.com`,
    firstName: "Test",
    lastName: "Member",
    password: "diagnostics-password",
  };
}

function runTest(test: Test): Promise<DiagnosticResult> {
  const options = { errorPage: false };
  switch (test.kind) {
    case "connectivity":
      return api.get<DiagnosticResult>("/api/db-check", options);
    case "registration":
      return api.post<DiagnosticResult>("/api/db-check/registration-flow", test.input, options);
    case "reset":
      return api.post<DiagnosticResult>("/api/db-check/reset", undefined, options);
  }
}

/** What the results box shows for a failed request: the status and what the server said. */
function describeFailure(error: Error) {
  if (!(error instanceof ApiError)) return { status: "error", message: error.message };
  return {
    status: "error",
    httpStatus: error.status,
    message: error.message,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

export function DebugPage() {
  const [member, setMember] = useState(testMember);
  const [results, setResults] = useState<unknown>(null);
  const resultsHeadingId = useId();

  const test = useMutation<DiagnosticResult, Error, Test>({
    mutationFn: runTest,
    onSuccess: (result) => {
      setResults(result);
      if (result.status === "ok") toastSuccess("Test Complete", result.message);
      else toastError("Test Failed", result.error ?? result.message);
    },
    onError: (error) => {
      setResults(describeFailure(error));
      toastError("Test Failed", error.message);
    },
  });
  const running = (kind: Test["kind"]) => test.isPending && test.variables?.kind === kind;

  const field = (name: keyof RegistrationTestInput) => ({
    name,
    value: member[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setMember((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <title>Diagnostics | Prism</title>
      <meta name="robots" content="noindex, nofollow" />
      <h1 className="text-3xl font-semibold tracking-tight">Registration Diagnostics</h1>
      <p className="mt-2 text-muted-foreground">
        Check that Prism can reach its database and that signing up works end to end. Nothing is
        kept: the registration test is rolled back.
      </p>

      <Tabs defaultValue="connectivity" className="mt-8">
        <TabsList aria-label="Diagnostic tests">
          <TabsTrigger value="connectivity">Connectivity Test</TabsTrigger>
          <TabsTrigger value="registration">Registration Test</TabsTrigger>
          <TabsTrigger value="reset">Reset Connection</TabsTrigger>
        </TabsList>

        <TabsContent value="connectivity">
          <ToolCard
            icon={<Database />}
            title="Connectivity Test"
            description="Pings the database and reports whether it answered."
          >
            <Button disabled={test.isPending} onClick={() => test.mutate({ kind: "connectivity" })}>
              <Play aria-hidden="true" />
              {running("connectivity") ? "Running..." : "Run Connectivity Test"}
            </Button>
          </ToolCard>
        </TabsContent>

        <TabsContent value="registration">
          <ToolCard
            icon={<UserPlus />}
            title="Registration Test"
            description="Registers this member with the real sign-up rules, then rolls the account back so that no one is left behind."
          >
            <form
              noValidate
              className="grid gap-4"
              onSubmit={(event) => {
                event.preventDefault();
                test.mutate({ kind: "registration", input: member });
              }}
            >
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Test username" autoComplete="off" {...field("username")} />
                <Field label="Test email" type="email" autoComplete="off" {...field("email")} />
                <Field label="First name" autoComplete="off" {...field("firstName")} />
                <Field label="Last name" autoComplete="off" {...field("lastName")} />
                <Field
                  label="Test password"
                  type="password"
                  autoComplete="new-password"
                  {...field("password")}
                />
              </div>
              <div className="flex flex-wrap gap-3">
                <Button type="submit" disabled={test.isPending}>
                  <Play aria-hidden="true" />
                  {running("registration") ? "Running..." : "Run Registration Test"}
                </Button>
                <Button variant="outline" onClick={() => setMember(testMember())}>
                  <RefreshCw aria-hidden="true" />
                  New Test Member
                </Button>
              </div>
            </form>
          </ToolCard>
        </TabsContent>

        <TabsContent value="reset">
          <ToolCard
            icon={<RefreshCw />}
            title="Reset Connection"
            description="Checks the database connection once more. The database drivers reconnect by themselves, and no data is ever deleted."
          >
            <Button disabled={test.isPending} onClick={() => test.mutate({ kind: "reset" })}>
              <Play aria-hidden="true" />
              {running("reset") ? "Running..." : "Run Connection Reset"}
            </Button>
          </ToolCard>
        </TabsContent>
      </Tabs>

      <section aria-labelledby={resultsHeadingId} className="mt-8">
        <div className="flex items-center justify-between gap-4">
          <h2 id={resultsHeadingId} className="text-lg font-semibold">
            Results
          </h2>
          <Button
            variant="outline"
            size="sm"
            disabled={results === null}
            onClick={() => setResults(null)}
          >
            <Eraser aria-hidden="true" />
            Clear Results
          </Button>
        </div>
        <pre
          role="status"
          aria-live="polite"
          aria-labelledby={resultsHeadingId}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
          tabIndex={0}
          className="mt-3 max-h-96 min-h-32 overflow-auto whitespace-pre-wrap break-words rounded-xl border border-border bg-muted p-4 font-mono text-sm"
        >
          {results === null
            ? "No results yet. Run a test above."
            : JSON.stringify(results, null, 2)}
        </pre>
      </section>
    </div>
  );
}
