// @vitest-environment jsdom
// What the pages offer against Prism's real server with Google sign-in and outgoing mail
// configured: everything, as before. (The end-to-end server has neither; its stories check that
// the pages then hide or explain what needs them.)
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { passwordResetMessages } from "../../../contract/password-reset.ts";
import { queryKeys } from "../../lib/query.ts";
import { serveRealApp, useBrowser } from "../../test/real-server.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { MissingServices } from "../catalyst/missing-services.tsx";
import { ForgotPasswordPage } from "../password-reset/forgot-password-page.tsx";
import { SettingsPage } from "../settings/settings-page.tsx";
import { AuthPage } from "./auth-page.tsx";

const server = serveRealApp({
  GOOGLE_CLIENT_ID: "prism-test",
  GOOGLE_CLIENT_SECRET: "secret",
  // Nothing listens there: no message is sent in these tests.
  SMTP_URL: "smtp://127.0.0.1:1",
});

afterEach(() => cleanup());

/** Renders `ui` for the visitor in use, once the page knows which services the server has. */
async function renderKnowingServices(ui: React.ReactElement) {
  const view = renderWithQueries(ui);
  await waitFor(() =>
    expect(view.queryClient.getQueryState(queryKeys.siteServices)?.data).toEqual({
      googleSignIn: true,
      outgoingMail: true,
    }),
  );
  return view;
}

describe("with Google sign-in and outgoing mail", () => {
  it("the sign-in page offers Continue with Google", async () => {
    useBrowser(server.browser());
    await renderKnowingServices(<AuthPage mode="sign-in" />);
    const google = screen.getByRole("link", { name: "Continue with Google" });
    expect(google.getAttribute("href")).toBe("/auth/google");
  });

  it("Profile Settings offers Connect Google, which asks for the current password first", async () => {
    const { browser } = await server.member("settings");
    useBrowser(browser);
    await renderKnowingServices(<SettingsPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Connect Google" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Connect Google" });
    await user.type(within(dialog).getByLabelText("Current password"), "not-my-password");
    await user.click(within(dialog).getByRole("button", { name: "Continue to Google" }));
    expect(await within(dialog).findByText("The current password is not correct")).toBeTruthy();
  });

  it("Forgot password? offers to send a reset link", async () => {
    useBrowser(server.browser());
    await renderKnowingServices(<ForgotPasswordPage />);
    expect(screen.getByLabelText("Username or email")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send reset link" })).toBeTruthy();
    expect(screen.queryByText(passwordResetMessages.noMail)).toBeNull();
  });

  it("Catalyst shows no banner", async () => {
    useBrowser(server.browser());
    await renderKnowingServices(<MissingServices />);
    expect(screen.queryByText(/Not configured/)).toBeNull();
  });
});
