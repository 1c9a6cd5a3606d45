// @vitest-environment jsdom
// The landing page's example prism: a visitor responds in the same dialog as on a member's page,
// the save is simulated (the spec's 500 ms) and sends nothing, and the response then shows as the
// prism's owner would see it, with Approve and Reject acting on the page alone.
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CurrentUser } from "../../../contract/user.ts";
import { createQueryClient, queryKeys } from "../../lib/query.ts";
import { renderWithQueries } from "../../test/render.tsx";
import { ExamplePrism } from "./example-prism.tsx";

const member: CurrentUser = {
  id: 7,
  username: "robin",
  firstName: "Robin",
  lastName: "Quill",
  displayName: null,
  websiteUrl: null,
  twitterUrl: null,
  linkedinUrl: null,
  profileImageUrl: null,
  websiteVerified: false,
  membersOnly: false,
  listed: true,
  email: "robin@example.com",
  isAdmin: false,
  authProvider: "local",
  googleConnected: false,
  hasPassword: true,
  websiteCheckedAt: null,
  lastActiveAt: null,
  createdAt: new Date(0).toISOString(),
  preapproveMembers: false,
  preapproveTeammates: true,
  notifyTeamPrisms: false,
  emailNotifications: "daily",
  anonymousResponses: "check",
  anonymousLinks: "held",
  watchedWords: [],
  federated: false,
  approveFollowers: false,
};

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  cleanup();
});

/**
 * Renders the example for a visitor (`user`, or null when signed out) as the landing page has it
 * once hydrated: who the visitor is came with the page. Answers the requests the page sends from
 * then on: there is no server to answer them, as the example needs none.
 */
function renderExample(user: CurrentUser | null) {
  const requests: string[] = [];
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(`${init?.method ?? "GET"} ${input instanceof Request ? input.url : input}`);
    return Promise.reject(new TypeError("Failed to fetch"));
  });
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.currentUser, user);
  renderWithQueries(<ExamplePrism />, queryClient);
  return requests;
}

/** Opens the dialog from "Respond to a passage" and picks `start`..`end` of the prism's text. */
async function pickPassage(user: ReturnType<typeof userEvent.setup>, start: number, end: number) {
  await user.click(screen.getByRole("button", { name: "Respond to a passage" }));
  const dialog = await screen.findByRole("dialog", { name: "Respond to this passage" });
  const passage = within(dialog).getByLabelText("Select the words you want to respond to");
  (passage as HTMLTextAreaElement).setSelectionRange(start, end);
  fireEvent.select(passage);
  return dialog;
}

describe("the landing page's example prism", () => {
  it("saves a visitor's response on the page after 500 ms, sending nothing, and shows it as the owner would", async () => {
    const requests = renderExample(null);
    const user = userEvent.setup();
    const text = screen.getByText(/^Tell me early and tell me plainly\./).textContent ?? "";
    // From inside "early" to inside "plainly": the passage is taken in whole words.
    const dialog = await pickPassage(user, text.indexOf("early") + 2, text.indexOf("plainly") + 3);
    const quote = "early and tell me plainly";
    expect(within(dialog).getByText(quote, { exact: true })).toBeTruthy();
    const respond = within(dialog).getByRole("button", { name: "Respond" });
    expect(respond).toHaveProperty("disabled", true);
    await user.type(within(dialog).getByLabelText("Your thought"), "   ");
    expect(respond).toHaveProperty("disabled", true);
    await user.type(within(dialog).getByLabelText("Your thought"), "Plain words save us a week.");
    await user.type(within(dialog).getByLabelText("Name"), "Sam");

    // The save is simulated: it takes 500 ms on the page's clock, and nothing more.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    fireEvent.click(respond);
    await act(() => vi.advanceTimersByTimeAsync(0));
    const sending = within(dialog).getByRole("button", { name: "Sending..." });
    expect(sending).toHaveProperty("disabled", true);
    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(within(dialog).getByRole("button", { name: "Sending..." })).toBeTruthy();
    expect(screen.queryByText("This annotation is pending approval.")).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    // The dialog, closing, hands focus on at once (a timer of no delay).
    await act(() => vi.advanceTimersByTimeAsync(0));
    vi.useRealTimers();

    const responses = await screen.findByRole("list", { name: "Responses" });
    const [response] = within(responses).getAllByRole("listitem");
    if (!response) throw new Error("no response");
    expect(within(response).getByText("Sam (visitor)")).toBeTruthy();
    expect(within(response).getByText(quote)).toBeTruthy();
    expect(within(response).getByText("Plain words save us a week.")).toBeTruthy();
    expect(within(response).getByText("This annotation is pending approval.")).toBeTruthy();
    expect(within(response).getByRole("button", { name: "Approve" })).toBeTruthy();
    expect(within(response).getByRole("button", { name: "Reject" })).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    // Focus goes to the new response, not back to "Respond to a passage".
    await waitFor(() => expect(document.activeElement).toBe(response));

    // The owner's decision, too, is the page's alone.
    await user.click(within(response).getByRole("button", { name: "Approve" }));
    await screen.findByText("The annotation has been approved and is now visible to others.");
    expect(within(response).queryByRole("button", { name: "Approve" })).toBeNull();
    expect(within(response).queryByText("This annotation is pending approval.")).toBeNull();
    expect(requests).toEqual([]);
  });

  it("names a signed-in member as the owner would see them, and Reject sets the response aside", async () => {
    const requests = renderExample(member);
    const user = userEvent.setup();
    const dialog = await pickPassage(user, 0, "Tell me early".length);
    expect(within(dialog).queryByLabelText("Name")).toBeNull();
    await user.type(within(dialog).getByLabelText("Your thought"), "Early is kind.{Enter}");
    await screen.findByText("Your response has been submitted successfully.");
    const responses = await screen.findByRole("list", { name: "Responses" });
    const response = within(responses).getByRole("listitem");
    expect(within(response).getByText("Robin Quill")).toBeTruthy();
    expect(within(response).getByText("Tell me early")).toBeTruthy();
    await user.click(within(response).getByRole("button", { name: "Reject" }));
    await screen.findByText("The annotation has been rejected.");
    expect(within(response).getByText("Not approved")).toBeTruthy();
    expect(within(response).queryByRole("button", { name: "Approve" })).toBeNull();
    expect(requests).toEqual([]);
  });
});
