// The phone the small-screen stories run on: 360 × 740 CSS px, touch, a mobile user agent and
// viewport meta handling (Playwright's Pixel 5 profile, narrowed to the smallest common width).
import { devices } from "@playwright/test";

export const phone = {
  ...devices["Pixel 5"],
  viewport: { width: 360, height: 740 },
  screen: { width: 360, height: 740 },
};
