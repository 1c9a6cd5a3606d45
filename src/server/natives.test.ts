import { describe, expect, it } from "vitest";

// A built-in function has no `prototype` of its own; a function written in JavaScript, as the
// polyfills that replace built-ins are, has one.
const isBuiltIn = (fn: unknown) => typeof fn === "function" && !Object.hasOwn(fn, "prototype");

describe("Node's built-ins", () => {
  it("are still Node's own once the app and Fedify are loaded", async () => {
    await import("@fedify/fedify/vocab");
    await import("./app.ts");
    expect(isBuiltIn(Array.prototype.push)).toBe(true);
    expect(isBuiltIn(JSON.stringify)).toBe(true);
    expect(isBuiltIn(Function.prototype.toString)).toBe(true);
  });
});
