// A teammate's new or edited prism in the daily digest of the members who asked to hear of them:
// one item per prism however often it was edited, and never a mail of its own.
import { describe, expect, it } from "vitest";
import { displayName } from "../../../contract/names.ts";
import { buildTeam, buildTeamMember, buildUser } from "../../test/builders.ts";
import { send, signIn, TEST_ORIGIN } from "../../test/helpers.ts";
import { decodedMail, setupMailTestApp } from "../../test/mail.ts";

const DAY = 24 * 60 * 60 * 1000;
let clock = new Date("2030-03-01T08:00:00Z");
const t = setupMailTestApp({ APP_SECRET: "a-secret-for-the-team-digest-tests" }, () => clock);

const mailsTo = (address: string) =>
  t.received.filter((mail) => mail.to.includes(address)).map((mail) => decodedMail(mail.raw));

const CONTENT = "<p>Mornings are for deep work.</p>";

describe("teammates' prisms by e-mail", () => {
  it("are in the daily digest once per prism, and mailed to nobody at once", async () => {
    const author = await buildUser(t.database);
    const daily = await buildUser(t.database, {
      emailNotifications: "daily",
      notifyTeamPrisms: true,
    });
    const atOnce = await buildUser(t.database, {
      emailNotifications: "immediately",
      notifyTeamPrisms: true,
    });
    const team = await buildTeam(t.database);
    for (const user of [author, daily, atOnce]) {
      await buildTeamMember(t.database, { teamId: team.id, userId: user.id });
    }
    const headers = await signIn(t.database, author);
    const created = await send(t.app, "POST", "/api/prisms", {
      headers,
      payload: { title: "Roadmap", content: CONTENT, audience: "team" },
    });
    expect(created.statusCode).toBe(201);
    const prismId = created.json().id as number;
    const edited = await send(t.app, "PUT", `/api/prisms/${prismId}`, {
      headers,
      payload: { title: "Roadmap for spring", content: CONTENT },
    });
    expect(edited.statusCode).toBe(200);
    await t.app.emailNotifier.idle();
    expect(mailsTo(atOnce.email)).toEqual([]);

    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    const [digest, ...more] = mailsTo(daily.email);
    expect(more).toEqual([]);
    expect(digest).toContain(
      `Subject: ${displayName(author)} wrote or edited the Prism "Roadmap for spring"`,
    );
    expect(digest).toContain(`${TEST_ORIGIN}/${author.username}?prism=${prismId}`);
    expect(mailsTo(atOnce.email)).toEqual([]);
    // Mailed once: the next day's digest has nothing to say of it.
    clock = new Date(clock.getTime() + DAY);
    await t.app.emailNotifier.runDigest();
    expect(mailsTo(daily.email)).toHaveLength(1);
  });
});
