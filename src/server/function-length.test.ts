// No function in the server is over 100 lines, and app.ts, which only assembles the app, is under
// 150: a reader meets named parts, not one long body.
// Each file is parsed (with the parser Vite already brings) and every function's lines counted,
// from its first line to its last; test files are left out (a describe block is a list of cases).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync } from "vite";
import { describe, expect, it } from "vitest";

const MAX_LINES = 100;
const MAX_APP_LINES = 149;

const serverRoot = fileURLToPath(new URL(".", import.meta.url));

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) yield path;
  }
}

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** What a reader would call a function: its own name, or what it is assigned or passed to. */
function nameOf(node: Node, parent: Node | undefined, source: string): string {
  const named = (value: unknown) => {
    if (!isNode(value)) return null;
    return typeof value.name === "string" ? value.name : source.slice(value.start, value.end);
  };
  const own = named(node.id);
  if (own) return own;
  if (parent?.type === "VariableDeclarator") return named(parent.id) ?? "(anonymous)";
  if (parent?.type === "Property" || parent?.type === "MethodDefinition") {
    return named(parent.key) ?? "(anonymous)";
  }
  if (parent?.type === "CallExpression") return `a callback of ${named(parent.callee)}`;
  return "(anonymous)";
}

/** Every function of a file over the limit, as `file:line name (lines)`. */
function longFunctions(path: string): string[] {
  const source = readFileSync(path, "utf8");
  const { program, errors } = parseSync(path, source);
  expect(errors, path).toEqual([]);
  const lineStarts = [0];
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) {
    lineStarts.push(i + 1);
  }
  const lineOf = (offset: number) => lineStarts.findLastIndex((start) => start <= offset) + 1;
  const file = relative(serverRoot, path);
  const found: string[] = [];
  const visit = (node: Node, parent?: Node) => {
    if (FUNCTIONS.has(node.type)) {
      const first = lineOf(node.start);
      const lines = lineOf(node.end) - first + 1;
      if (lines > MAX_LINES)
        found.push(`${file}:${first} ${nameOf(node, parent, source)} (${lines})`);
    }
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isNode(child)) visit(child, node);
      }
    }
  };
  visit(program as unknown as Node);
  return found;
}

describe(`functions of src/server (at most ${MAX_LINES} lines)`, () => {
  it("has none longer", () => {
    expect([...sourceFiles(serverRoot)].flatMap(longFunctions)).toEqual([]);
  });
});

describe(`app.ts (at most ${MAX_APP_LINES} lines)`, () => {
  it("only assembles", () => {
    const source = readFileSync(join(serverRoot, "app.ts"), "utf8");
    expect(source.trimEnd().split("\n").length).toBeLessThanOrEqual(MAX_APP_LINES);
  });
});
