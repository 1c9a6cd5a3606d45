import { afterEach, describe, expect, it, vi } from "vitest";

const shown = vi.hoisted(() => [] as { kind: string; title: string; duration: number }[]);
vi.mock("sonner", () => ({
  toast: {
    success: (title: string, options: { duration: number }) =>
      shown.push({ kind: "success", title, duration: options.duration }),
    error: (title: string, options: { duration: number }) =>
      shown.push({ kind: "error", title, duration: options.duration }),
  },
}));

const { toastDuration, toastError, toastSuccess } = await import("./toast.ts");

afterEach(() => {
  shown.length = 0;
});

describe("toast durations (the spec's, with failures lasting 3 s as decided)", () => {
  it("confirmations and failures last 3 s unless told otherwise", async () => {
    toastSuccess("prism created", "Your new prism has been added.");
    toastError("Error deleting prism", "Not found");
    await vi.waitFor(() => expect(shown).toHaveLength(2));
    expect(shown).toEqual([
      { kind: "success", title: "prism created", duration: 3000 },
      { kind: "error", title: "Error deleting prism", duration: 3000 },
    ]);
  });

  it("quick ones last 2 s, and a failed annotation submit the spec's 5 s", async () => {
    toastSuccess("Refreshed", undefined, toastDuration.quick);
    toastError("Failed to submit annotation", "Too long", toastDuration.submitFailure);
    await vi.waitFor(() => expect(shown).toHaveLength(2));
    expect(shown.map((toast) => toast.duration)).toEqual([2000, 5000]);
  });
});
