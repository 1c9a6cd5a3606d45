import { register } from "prom-client";
import { describe, expect, it } from "vitest";
import { requestDuration } from "./metrics.ts";

const NAME = "prism_http_request_duration_seconds";

/** The lines of the request durations that name `route`, without the metric's name. */
async function linesOf(route: string): Promise<string[]> {
  const text = await register.getSingleMetricAsString(NAME);
  return text
    .split("\n")
    .filter((line) => line.includes(`route="${route}"`))
    .map((line) => line.slice(NAME.length));
}

describe("request durations", () => {
  it("counts each answer under every bucket it fits, then +Inf, the sum and the count", async () => {
    const route = {};
    const labels = { method: "GET", route: "/api/buckets", status_code: 200 };
    for (const seconds of [0.003, 0.03, 20]) requestDuration.observe(route, labels, seconds);
    const series = 'method="GET",route="/api/buckets",status_code="200"';
    const upTo: [string, number][] = [
      ["0.005", 1],
      ["0.01", 1],
      ["0.025", 1],
      ["0.05", 2],
      ["0.1", 2],
      ["0.25", 2],
      ["0.5", 2],
      ["1", 2],
      ["2.5", 2],
      ["5", 2],
      ["10", 2],
      ["+Inf", 3],
    ];
    expect(await linesOf("/api/buckets")).toEqual([
      ...upTo.map(([le, count]) => `_bucket{${series},le="${le}"} ${count}`),
      `_sum{${series}} 20.033`,
      `_count{${series}} 3`,
    ]);
  });

  it("counts a route pattern of two apps in one process as one series", async () => {
    const labels = { method: "GET", route: "/api/two-apps", status_code: 304 };
    requestDuration.observe({}, labels, 0.001);
    requestDuration.observe({}, labels, 0.001);
    const counts = (await linesOf("/api/two-apps")).filter((line) => line.startsWith("_count"));
    expect(counts).toEqual(['_count{method="GET",route="/api/two-apps",status_code="304"} 2']);
  });

  it("keeps the methods and statuses of one route apart", async () => {
    const route = {};
    requestDuration.observe(route, { method: "GET", route: "/api/apart", status_code: 200 }, 0.001);
    requestDuration.observe(route, { method: "GET", route: "/api/apart", status_code: 404 }, 0.001);
    requestDuration.observe(
      route,
      { method: "HEAD", route: "/api/apart", status_code: 200 },
      0.001,
    );
    const counts = (await linesOf("/api/apart")).filter((line) => line.startsWith("_count"));
    expect(counts).toEqual([
      '_count{method="GET",route="/api/apart",status_code="200"} 1',
      '_count{method="GET",route="/api/apart",status_code="404"} 1',
      '_count{method="HEAD",route="/api/apart",status_code="200"} 1',
    ]);
  });
});
