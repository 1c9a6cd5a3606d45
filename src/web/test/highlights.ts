// jsdom has no CSS Custom Highlight API: a registry that keeps what it is given stands in for it.
import { afterEach, beforeEach, vi } from "vitest";

class RecordedHighlight {
  readonly ranges: Range[];
  constructor(...ranges: Range[]) {
    this.ranges = ranges;
  }
}

/**
 * The highlights a test's page draws, by name: installed for every test of the file that calls
 * this, emptied before each.
 */
export function recordHighlights(): Map<string, RecordedHighlight> {
  const registry = new Map<string, RecordedHighlight>();
  beforeEach(() => {
    registry.clear();
    vi.stubGlobal("Highlight", RecordedHighlight);
    vi.stubGlobal("CSS", { highlights: registry });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  return registry;
}
