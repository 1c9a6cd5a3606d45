// @vitest-environment jsdom
// What the pages offer against Prism's real server, with and without Google sign-in and outgoing
// mail configured: what needs a missing service is hidden or explained, never offered to fail.
import { cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { passwordResetMessages } from "../../../contract/password-reset.ts";
import { queryKeys } from "../../lib/query.ts";
import { serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { MissingServices } from "../catalyst/missing-services.tsx";
import { ForgotPasswordPage } from "../password-reset/forgot-password-page.tsx";
import { AuthPage } from "./auth-page.tsx";

const configured = serveRealApp({
  GOOGLE_CLIENT_ID: "prism-test",
  GOOGLE_CLIENT_SECRET: "secret",
  // Nothing listens there: no message is sent in these tests.
  SMTP_URL: "smtp://127.0.0.1:1",
});
const bare = serveRealApp();

afterEach(() => cleanup());

/** Renders `ui` for the visitor in use, once the page knows which services the server has. */
async function renderKnowingServices(ui: React.ReactElement) {
  const view = renderWithQueries(ui);
  await waitFor(() =>
    expect(view.queryClient.getQueryState(queryKeys.siteServices)?.status).toBe("success"),
  );
  return view;
}

describe("with Google sign-in and outgoing mail", () => {
  it("the sign-in page offers Continue with Google", async () => {
    useBrowser(configured.browser());
    await renderKnowingServices(<AuthPage mode="sign-in" />);
    const google = await screen.findByRole("link", { name: "Continue with Google" });
    expect(google.getAttribute("href")).toBe("/auth/google");
  });

  it("Forgot password? offers to send a reset link", async () => {
    useBrowser(configured.browser());
    await renderKnowingServices(<ForgotPasswordPage />);
    expect(screen.getByRole("button", { name: "Send reset link" })).toBeTruthy();
    expect(screen.queryByText(passwordResetMessages.noMail)).toBeNull();
  });

  it("Catalyst shows no banner", async () => {
    useBrowser(configured.browser());
    await renderKnowingServices(<MissingServices />);
    expect(screen.queryByText(/Not configured/)).toBeNull();
  });
});

describe("without them", () => {
  it("the sign-in page offers no Google sign-in", async () => {
    useBrowser(bare.browser());
    await renderKnowingServices(<AuthPage mode="sign-in" />);
    expect(screen.getByRole("button", { name: "Sign in" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Continue with Google" })).toBeNull();
  });

  it("Forgot password? says that this site cannot send email and to ask an admin", async () => {
    useBrowser(bare.browser());
    await renderKnowingServices(<ForgotPasswordPage />);
    expect(screen.getByText(passwordResetMessages.noMail)).toBeTruthy();
    expect(screen.getByText(passwordResetMessages.askAdmin)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Send reset link" })).toBeNull();
  });

  it("Catalyst's banner names what is not configured", async () => {
    useBrowser(bare.browser());
    await renderKnowingServices(<MissingServices />);
    const banner = screen.getByRole("region", {
      name: "Not configured on this server: Google sign-in, outgoing mail",
    });
    expect(banner.textContent).toContain("Members cannot sign in with Google.");
    expect(banner.textContent).toContain("Prism cannot send email");
  });
});
