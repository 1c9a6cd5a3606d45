import { describe, expect, it } from "vitest";
import { annotationAudience } from "./policy.ts";

describe("annotationAudience", () => {
  it("is everyone when an annotation is or was approved, else the owner and the member authors", () => {
    expect(annotationAudience(1, [{ statuses: ["pending"], userId: null }])).toEqual([1]);
    expect(annotationAudience(1, [{ statuses: ["pending"], userId: 5 }])).toEqual([1, 5]);
    expect(
      annotationAudience(1, [
        { statuses: ["pending", "rejected"], userId: 5 },
        { statuses: ["rejected"], userId: 1 },
      ]),
    ).toEqual([1, 5]);
    expect(annotationAudience(1, [{ statuses: ["pending", "approved"], userId: 5 }])).toBe(
      undefined,
    );
    expect(annotationAudience(1, [{ statuses: ["approved", "rejected"], userId: 5 }])).toBe(
      undefined,
    );
  });
});
