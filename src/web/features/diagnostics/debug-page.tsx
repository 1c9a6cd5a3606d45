// /debug: checks the database connection and the registration flow (rolled back) from the browser.

import { Database, Eraser, Play, RefreshCw, UserPlus } from "lucide-react";
import { type ChangeEvent, type ReactNode, useId, useState } from "react";
import type { RegistrationTestInput } from "../../../contract/diagnostics.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs.tsx";
import { type DiagnosticTest, useDiagnosticTest } from "./diagnostics-queries.ts";
import { ToolCard } from "./tool-card.tsx";

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

const memberFields: {
  name: keyof RegistrationTestInput;
  label: string;
  type?: string;
  autoComplete: string;
}[] = [
  { name: "username", label: "Test username", autoComplete: "off" },
  { name: "email", label: "Test email", type: "email", autoComplete: "off" },
  { name: "firstName", label: "First name", autoComplete: "off" },
  { name: "lastName", label: "Last name", autoComplete: "off" },
  { name: "password", label: "Test password", type: "password", autoComplete: "new-password" },
];

/** The three tests, each a tab named like its card. */
const tools: {
  kind: DiagnosticTest["kind"];
  icon: ReactNode;
  title: string;
  description: string;
  runLabel: string;
}[] = [
  {
    kind: "connectivity",
    icon: <Database />,
    title: "Connectivity Test",
    description: "Pings the database and reports whether it answered.",
    runLabel: "Run Connectivity Test",
  },
  {
    kind: "registration",
    icon: <UserPlus />,
    title: "Registration Test",
    description:
      "Registers this member with the real sign-up rules, then rolls the account back so that no one is left behind.",
    runLabel: "Run Registration Test",
  },
  {
    kind: "reset",
    icon: <RefreshCw />,
    title: "Reset Connection",
    description:
      "Closes the database connection and opens a fresh one, then checks it. Work under way finishes first, and no data is ever deleted.",
    runLabel: "Run Connection Reset",
  },
];

export function DebugPage() {
  const [member, setMember] = useState(testMember);
  const [results, setResults] = useState<unknown>(null);
  const resultsHeadingId = useId();
  const test = useDiagnosticTest(setResults);

  const field = (name: keyof RegistrationTestInput) => ({
    name,
    value: member[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setMember((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Registration Diagnostics</h1>
      <p className="mt-2 text-muted-foreground">
        Check that Prism can reach its database and that signing up works end to end. Nothing is
        kept: the registration test is rolled back.
      </p>

      <Tabs defaultValue="connectivity" className="mt-8">
        <TabsList aria-label="Diagnostic tests">
          {tools.map((tool) => (
            <TabsTrigger key={tool.kind} value={tool.kind} className="flex-1">
              {tool.title}
            </TabsTrigger>
          ))}
        </TabsList>

        {tools.map(({ kind, icon, title, description, runLabel }) => {
          const label = (
            <>
              <Play aria-hidden="true" />
              {test.isPending && test.variables?.kind === kind ? "Running..." : runLabel}
            </>
          );
          return (
            <TabsContent key={kind} value={kind}>
              <ToolCard icon={icon} title={title} description={description}>
                {kind === "registration" ? (
                  <form
                    noValidate
                    className="grid gap-4"
                    onSubmit={(event) => {
                      event.preventDefault();
                      test.mutate({ kind: "registration", input: member });
                    }}
                  >
                    <div className="grid gap-4 sm:grid-cols-2">
                      {memberFields.map(({ name, ...props }) => (
                        <Field key={name} {...props} {...field(name)} />
                      ))}
                    </div>
                    <div className="flex flex-wrap gap-3">
                      <Button type="submit" disabled={test.isPending}>
                        {label}
                      </Button>
                      <Button variant="outline" onClick={() => setMember(testMember())}>
                        <RefreshCw aria-hidden="true" />
                        New Test Member
                      </Button>
                    </div>
                  </form>
                ) : (
                  <Button disabled={test.isPending} onClick={() => test.mutate({ kind })}>
                    {label}
                  </Button>
                )}
              </ToolCard>
            </TabsContent>
          );
        })}
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
