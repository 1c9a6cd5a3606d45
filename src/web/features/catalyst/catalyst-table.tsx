// biome-ignore-all lint/a11y/noRedundantRoles: a table whose CSS display is changed (cards on a phone) loses its implied roles in browsers; stated, they keep it a table for screen readers
// One admin table as the dashboard shows it: a debounced search, the rows (a table that scrolls
// sideways within its frame when it must; on a phone, a card per row), the loading, error and
// empty states, a menu of actions per row, and the pager with the page number.
import { MoreHorizontal, Search } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu.tsx";
import { Input } from "../../components/ui/input.tsx";
import { LoadError } from "../../components/ui/load-error.tsx";
import { cn } from "../../lib/cn.ts";
import {
  ADMIN_PAGE_SIZE,
  type CatalystRows,
  type CatalystTable as TableName,
  useCatalystList,
} from "./catalyst-queries.ts";

/** How long typing must pause before the search runs. */
const SEARCH_DELAY_MS = 300;

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

interface CatalystTableProps<T extends TableName> {
  table: T;
  /** The table's name, for its caption and its region. */
  title: string;
  columns: Column<CatalystRows[T]>[];
  rowKey: (row: CatalystRows[T]) => number;
  /** Spec §8's inline text when the page cannot be loaded (with Retry). */
  loadError: string;
  /** The text when there are no rows at all. */
  empty: string;
  /** The search box's label; no search box without one. */
  searchLabel?: string;
  /** A note under the table (what a mark in it means). */
  footnote?: ReactNode;
  /** Further query parameters that narrow the list (a filter). */
  filters?: Record<string, string>;
  /** Controls beside the search box (a filter's). */
  toolbar?: ReactNode;
  page: number;
  q: string;
  onPageChange: (page: number) => void;
  onSearch: (q: string) => void;
}

export function CatalystTable<T extends TableName>(props: CatalystTableProps<T>) {
  const { table, title, columns, rowKey, page, q } = props;
  const list = useCatalystList(table, page, q, props.filters);
  const rows = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));

  return (
    <div className="space-y-4">
      {props.searchLabel ? (
        <SearchBox label={props.searchLabel} value={q} onSearch={props.onSearch} />
      ) : null}
      {props.toolbar}
      <RowsTable
        title={title}
        columns={columns}
        rowKey={rowKey}
        rows={rows}
        query={list}
        loadError={props.loadError}
        empty={q ? `No results for "${q}".` : props.empty}
      />
      {props.footnote ? <p className="text-xs text-muted-foreground">{props.footnote}</p> : null}
      <nav aria-label={`${title} pages`} className="flex items-center justify-center gap-4">
        <Button
          variant="outline"
          size="sm"
          disabled={page <= 1}
          onClick={() => props.onPageChange(page - 1)}
        >
          Previous
        </Button>
        <span className="text-sm text-muted-foreground">
          Page {page} of {pages}
        </span>
        <Button
          variant="outline"
          size="sm"
          disabled={page >= pages}
          onClick={() => props.onPageChange(page + 1)}
        >
          Next
        </Button>
      </nav>
    </div>
  );
}

interface RowsTableProps<Row> {
  /** The table's name, for its caption and its region. */
  title: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => number | string;
  rows: Row[];
  /** Where the rows come from: loading, failed (with Retry), or fetching again. */
  query: {
    isPending: boolean;
    isError: boolean;
    isFetching: boolean;
    refetch: () => Promise<unknown>;
  };
  loadError: string;
  /** The text when there are no rows. */
  empty: string;
}

/**
 * Rows as the dashboard shows them: a table from 640 px up (scrolling sideways within its frame
 * when it must), a card per row below; its loading, error and empty states.
 */
export function RowsTable<Row>({
  title,
  columns,
  rowKey,
  rows,
  query,
  ...text
}: RowsTableProps<Row>) {
  const captionId = useId();
  let body: ReactNode;
  if (query.isPending) {
    body = <StateRow columns={columns.length} role="status" text="Loading..." />;
  } else if (query.isError) {
    body = (
      <tr role="row" className="block sm:table-row">
        <td role="cell" colSpan={columns.length} className="block p-4 sm:table-cell">
          <LoadError
            message={text.loadError}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </td>
      </tr>
    );
  } else if (rows.length === 0) {
    body = <StateRow columns={columns.length} text={text.empty} />;
  } else {
    body = rows.map((row) => (
      <tr
        key={rowKey(row)}
        role="row"
        className="block border-t border-border px-1 py-2 align-middle sm:table-row sm:p-0"
      >
        {columns.map((column) => (
          <td
            key={column.header}
            role="cell"
            // On a phone each row is a card, its cells labelled by their column's header (drawn
            // by CSS: the cell's text stays what it holds).
            data-label={column.header}
            className={cn(
              "flex items-baseline gap-3 px-3 py-1 sm:table-cell sm:py-2.5",
              "before:w-24 before:shrink-0 before:text-xs before:uppercase before:tracking-wide before:text-muted-foreground before:content-[attr(data-label)] sm:before:content-none",
              column.className,
            )}
          >
            <div className="min-w-0">{column.cell(row)}</div>
          </td>
        ))}
      </tr>
    ));
  }
  return (
    <section
      aria-labelledby={captionId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard must reach a region that scrolls sideways (narrow screens)
      tabIndex={0}
      className="overflow-x-auto rounded-2xl border border-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {/*
        A table from 640 px up (scrolling sideways within its frame when it must); below, its
        rows are cards. The roles keep it a table for screen readers whatever CSS displays it as.
      */}
      <table
        role="table"
        className="block w-full text-left text-sm sm:table sm:min-w-[44rem]"
        aria-busy={query.isFetching}
      >
        <caption id={captionId} className="sr-only">
          {title}
        </caption>
        <thead
          role="rowgroup"
          className="bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground max-sm:sr-only"
        >
          <tr role="row">
            {columns.map((column) => (
              <th
                key={column.header}
                role="columnheader"
                scope="col"
                className="whitespace-nowrap px-3 py-2.5 font-medium"
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="block sm:table-row-group">
          {body}
        </tbody>
      </table>
    </section>
  );
}

function StateRow({ columns, text, role }: { columns: number; text: string; role?: "status" }) {
  return (
    <tr role="row" className="block sm:table-row">
      <td
        colSpan={columns}
        role={role ?? "cell"}
        className="block px-3 py-10 text-center text-muted-foreground sm:table-cell"
      >
        {text}
      </td>
    </tr>
  );
}

/** A search field that reports what was typed once typing pauses. */
function SearchBox({
  label,
  value,
  onSearch,
}: {
  label: string;
  value: string;
  onSearch: (q: string) => void;
}) {
  const [text, setText] = useState(value);
  const id = useId();
  useEffect(() => {
    const query = text.trim();
    if (query === value) return;
    const timer = setTimeout(() => onSearch(query), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <div className="relative max-w-sm">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        id={id}
        type="search"
        placeholder="Search"
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
        className="pl-9"
      />
    </div>
  );
}

interface RowAction {
  label: string;
  onSelect: () => void;
  /** Left out of the menu (the row is already in that state). */
  hidden?: boolean;
  destructive?: boolean;
  /** Why the action cannot be taken here: shown under it, which stays focusable and does nothing. */
  unavailable?: string;
}

/** Delete, done only once the admin has confirmed `question`. */
export function deleteAction(question: string, remove: () => void): RowAction {
  return {
    label: "Delete",
    destructive: true,
    onSelect: () => {
      if (window.confirm(question)) remove();
    },
  };
}

/**
 * A row's menu of actions, opened by a button named after the row. The chosen action runs once
 * the menu has closed, so that a dialog it opens returns focus to the menu's button.
 */
export function RowActions({ label, actions }: { label: string; actions: RowAction[] }) {
  const chosen = useRef<RowAction | null>(null);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size={null}
          className="size-8 rounded-lg text-sm"
          aria-label={label}
        >
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="min-w-40"
        onCloseAutoFocus={() => {
          chosen.current?.onSelect();
          chosen.current = null;
        }}
      >
        {actions
          .filter((action) => !action.hidden)
          .map((action) =>
            action.unavailable ? (
              <UnavailableItem
                key={action.label}
                label={action.label}
                reason={action.unavailable}
              />
            ) : (
              <DropdownMenuItem
                key={action.label}
                onSelect={() => {
                  chosen.current = action;
                }}
                className={action.destructive ? "text-destructive" : undefined}
              >
                {action.label}
              </DropdownMenuItem>
            ),
          )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** An item that cannot be chosen here, described by the reason shown under it. */
function UnavailableItem({ label, reason }: { label: string; reason: string }) {
  const reasonId = useId();
  return (
    <>
      <DropdownMenuItem
        aria-disabled="true"
        aria-describedby={reasonId}
        onSelect={(event) => event.preventDefault()}
        className="cursor-not-allowed text-muted-foreground"
      >
        {label}
      </DropdownMenuItem>
      <p id={reasonId} className="max-w-56 px-2.5 pb-2 text-xs text-muted-foreground">
        {reason}
      </p>
    </>
  );
}
