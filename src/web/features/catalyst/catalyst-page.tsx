// /catalyst: the admin dashboard (spec §2). Overview, Users, Prisms, Teams, Annotations, Messages,
// Federation, Reports and Audit tabs; the tab, page and search live in the URL, so a reload or a
// shared link opens the same view.
import { useCallback } from "react";
import { useSearchParams } from "wouter";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs.tsx";
import { readPage } from "../../lib/paging.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";
import { AnnotationsTable } from "./annotations-table.tsx";
import { AuditTable } from "./audit-table.tsx";
import { FederationTab } from "./federation-tab.tsx";
import { MessagesTable } from "./messages-table.tsx";
import { MissingServices } from "./missing-services.tsx";
import { Overview } from "./overview.tsx";
import { PrismsTable } from "./prisms-table.tsx";
import { ReportsTable } from "./reports-table.tsx";
import type { TableView } from "./table-view.ts";
import { TeamsTable } from "./teams-table.tsx";
import { UsersTable } from "./users-table.tsx";

const tabs = [
  { value: "overview", label: "Overview" },
  { value: "users", label: "Users" },
  { value: "prisms", label: "Prisms" },
  { value: "teams", label: "Teams" },
  { value: "annotations", label: "Annotations" },
  { value: "messages", label: "Messages" },
  { value: "federation", label: "Federation" },
  { value: "reports", label: "Reports" },
  { value: "audit", label: "Audit" },
] as const;
type Tab = (typeof tabs)[number]["value"];

function readTab(value: string | null): Tab {
  return tabs.find((tab) => tab.value === value)?.value ?? "overview";
}

export function CatalystPage() {
  const { user } = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = readTab(searchParams.get("tab"));
  const page = readPage(searchParams.get("page"));
  const q = searchParams.get("q") ?? "";
  const flagged = searchParams.get("flagged") === "true";

  const show = useCallback(
    (next: { tab: Tab; page?: number; q?: string; flagged?: boolean }) => {
      const params: Record<string, string> = {};
      if (next.tab !== "overview") params.tab = next.tab;
      if (next.page && next.page > 1) params.page = String(next.page);
      if (next.q) params.q = next.q;
      if (next.flagged) params.flagged = "true";
      setSearchParams(params, { replace: true });
    },
    [setSearchParams],
  );
  const view: TableView = {
    page,
    q,
    flagged,
    onPageChange: (next) => show({ tab, page: next, q, flagged }),
    onSearch: (next) => show({ tab, q: next, flagged }),
    onFlaggedChange: (next) => show({ tab, q, flagged: next }),
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-semibold tracking-tight">Catalyst: Admin Dashboard</h1>
      <MissingServices />
      <Tabs value={tab} onValueChange={(value) => show({ tab: readTab(value) })} className="mt-8">
        <TabsList className="h-auto flex-wrap justify-start sm:w-auto">
          {tabs.map(({ value, label }) => (
            <TabsTrigger key={value} value={value} className="flex-none">
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview">
          <Overview />
        </TabsContent>
        {/* Only the open tab is mounted, so each table starts with its own search box. */}
        <TabsContent value="users">
          <UsersTable me={user?.id ?? 0} {...view} />
        </TabsContent>
        <TabsContent value="prisms">
          <PrismsTable {...view} />
        </TabsContent>
        <TabsContent value="teams">
          <TeamsTable {...view} />
        </TabsContent>
        <TabsContent value="annotations">
          <AnnotationsTable {...view} />
        </TabsContent>
        <TabsContent value="messages">
          <MessagesTable {...view} />
        </TabsContent>
        <TabsContent value="federation">
          <FederationTab />
        </TabsContent>
        <TabsContent value="reports">
          <ReportsTable {...view} />
        </TabsContent>
        <TabsContent value="audit">
          <AuditTable {...view} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
