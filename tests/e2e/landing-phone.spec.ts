// The landing page's example prism on a phone: a passage selected by touch, Respond tapped, and the
// response shown as the prism's owner would see it, with nothing sent anywhere.
import { expect, expectNoAxeViolations, test } from "./fixtures.ts";
import { highlighted, openExample, responseTo, watchRequests } from "./landing.ts";
import { phone, touchSelect } from "./phone.ts";

test.use(phone);

test("a visitor selects a passage by touch, taps Respond and sees the response, and nothing is sent", async ({
  page,
}) => {
  const { content } = await openExample(page);
  const sent = watchRequests(page);
  await touchSelect(content, ["early", 2], ["plainly", 3]);
  const respond = page.getByRole("button", { name: "Respond", exact: true });
  await respond.tap();
  const dialog = page.getByRole("dialog", { name: "Respond to this passage" });
  await expect(dialog.getByText("early and tell me plainly", { exact: true })).toBeVisible();
  await expect(dialog.getByText("Tap Respond to send.")).toBeVisible();
  await dialog.getByLabel("Your thought").fill("Early is kind.");
  await dialog.getByRole("button", { name: "Respond" }).tap();
  await expect(dialog).toBeHidden();
  const response = responseTo(page, "early and tell me plainly");
  await expect(response.getByText("This annotation is pending approval.")).toBeInViewport();
  await expect.poll(() => highlighted(page)).toEqual(["early and tell me plainly"]);
  await expectNoAxeViolations(page);
  expect(sent).toEqual([]);
});
