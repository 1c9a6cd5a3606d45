// A control character (NUL above all) in any text field or path parameter is refused with a 400
// that names the field, and nothing is written; bidi controls are dropped from one-line fields.
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { textMessages } from "../../src/contract/text.ts";
import { annotations } from "../../src/server/db/schema.ts";
import { buildPrism, buildUser } from "../../src/server/test/builders.ts";
import {
  asSent,
  send,
  setupTestApp,
  signIn,
  visitorCookie,
} from "../../src/server/test/helpers.ts";
import { NotificationText } from "../../src/web/features/notifications/notification-text.tsx";

const t = setupTestApp();

const NUL = "\u0000";

interface Case {
  method: "POST" | "PUT";
  url: string;
  body: Record<string, unknown>;
  signedIn?: boolean;
}

async function cases(): Promise<Case[]> {
  const owner = await buildUser(t.database);
  const prism = await buildPrism(t.database, { userId: owner.id });
  const member = {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
  };
  return [
    {
      method: "POST",
      url: "/api/register",
      body: { ...member, username: "ada_l", password: "secret-1" },
    },
    { method: "POST", url: "/api/login", body: { username: "ada_l", password: "secret-1" } },
    {
      method: "PUT",
      url: "/api/user/profile",
      body: {
        ...member,
        displayName: "Ada",
        websiteUrl: "https://ada.example",
        twitterUrl: "",
        linkedinUrl: "",
      },
      signedIn: true,
    },
    {
      method: "POST",
      url: "/api/prisms",
      body: { title: "T", content: "<p>c</p>" },
      signedIn: true,
    },
    {
      method: "PUT",
      url: `/api/prisms/${prism.id}`,
      body: { title: "T", content: "<p>c</p>" },
      signedIn: true,
    },
    {
      method: "POST",
      url: "/api/annotations",
      body: {
        prismId: prism.id,
        selectedText: "Mornings",
        annotationText: "Same",
        selectionStart: 0,
        selectionEnd: 8,
        annotatorName: "Grace",
      },
    },
    {
      method: "POST",
      url: "/api/contact",
      body: { name: "Ada", email: "ada@example.com", subject: "Hi", message: "Hello there, team." },
    },
    { method: "POST", url: "/api/password-reset/request", body: { login: "ada_l" } },
    {
      method: "POST",
      url: "/api/password-reset/confirm",
      body: { token: "abc", password: "secret-1" },
    },
    {
      method: "POST",
      url: "/api/db-check/registration-flow",
      body: { ...member, username: "ada_x", password: "secret-1" },
    },
  ];
}

describe("control characters", () => {
  it("are refused in every text field with a 400 naming the field", async () => {
    const caller = await buildUser(t.database);
    const headers = await signIn(t.database, caller);
    let fields = 0;
    for (const c of await cases()) {
      for (const [field, value] of Object.entries(c.body)) {
        if (typeof value !== "string") continue;
        for (const bad of [`${value}${NUL}`, `a\u0007b`, "\u007f"]) {
          const response = await send(t.app, c.method, c.url, {
            payload: { ...c.body, [field]: bad },
            headers: c.signedIn ? headers : {},
          });
          expect(response.statusCode, `${c.method} ${c.url} ${field}`).toBe(400);
          expect(response.json().errors?.[field], `${c.method} ${c.url} ${field}`).toBe(
            textMessages.controlCharacters,
          );
        }
        fields += 1;
      }
    }
    expect(fields).toBeGreaterThanOrEqual(27);
  });

  it("keep tabs and line breaks, which text may hold", async () => {
    const owner = await buildUser(t.database);
    const response = await send(t.app, "POST", "/api/prisms", {
      payload: { title: "Tabs\tand", content: "<p>line\r\nbreak</p>" },
      headers: await signIn(t.database, owner),
    });
    expect(response.statusCode).toBe(201);
  });

  it("are refused in path parameters", async () => {
    for (const url of ["/api/users/a%00b", "/api/prisms/a%00b", "/api/prisms/1%00/heart"]) {
      const response = await send(t.app, "GET", url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toEqual(expect.any(String));
    }
  });
});

describe("bidi controls", () => {
  // Embeddings, overrides and isolates: each turns the text around a name or a title.
  const BIDI = [
    "\u202A",
    "\u202B",
    "\u202C",
    "\u202D",
    "\u202E",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
  ];
  const spoof = (text: string) => `${BIDI.join("")}${text}\u202E`;

  it("are dropped from names and titles, which are shown on one line beside other text", async () => {
    const member = await buildUser(t.database);
    const headers = await signIn(t.database, member);
    const profile = await send(t.app, "PUT", "/api/user/profile", {
      headers,
      payload: {
        firstName: spoof("Ada"),
        lastName: spoof("Lovelace"),
        email: member.email,
        displayName: spoof("Countess"),
        websiteUrl: "",
        twitterUrl: "",
        linkedinUrl: "",
      },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      displayName: "Countess",
    });

    const prism = await send(t.app, "POST", "/api/prisms", {
      headers,
      payload: { title: spoof("Mornings"), content: "<p>Mornings.</p>" },
    });
    expect(prism.statusCode).toBe(201);
    expect(prism.json().title).toBe("Mornings");

    const registered = await send(t.app, "POST", "/api/register", {
      payload: {
        username: "bidi_member",
        email: "bidi@example.com",
        password: "secret-1",
        firstName: spoof("Grace"),
        lastName: spoof("Hopper"),
      },
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toMatchObject({ firstName: "Grace", lastName: "Hopper" });
  });

  it("are dropped from a visitor's name, and kept in what they wrote", async () => {
    const owner = await buildUser(t.database);
    const prism = await buildPrism(t.database, { userId: owner.id, content: "<p>Mornings.</p>" });
    const headers = { cookie: visitorCookie("bidi-visitor-0000000001") };
    const annotated = await send(t.app, "POST", "/api/annotations", {
      headers,
      payload: await asSent(t.app, headers, {
        prismId: prism.id,
        selectedText: "Mornings",
        annotationText: "\u2067مرحبا\u2069 and hello",
        selectionStart: 0,
        selectionEnd: 8,
        annotatorName: spoof("Grace"),
      }),
    });
    expect(annotated.statusCode).toBe(201);
    const [stored] = await t.database.db
      .select()
      .from(annotations)
      .where(eq(annotations.id, annotated.json().id));
    expect(stored?.annotatorName).toBe("Grace");
    expect(stored?.annotationText).toBe("\u2067مرحبا\u2069 and hello");
  });

  it("cannot turn a notification's words around: its name and title are isolated", () => {
    const markup = renderToStaticMarkup(
      createElement(NotificationText, {
        notification: {
          id: 1,
          userId: 1,
          prismId: 1,
          type: "heart",
          actorName: spoof("Grace"),
          actorCount: 1,
          actors: [spoof("Grace")],
          read: false,
          createdAt: new Date().toISOString(),
          annotationId: null,
          annotationStatus: null,
          prismTitle: spoof("Mornings"),
          prismOwnerUsername: "ada",
          quote: null,
          passage: null,
        },
      }),
    );
    expect(markup).toContain(`<bdi class="font-medium">${spoof("Grace")}</bdi> liked your Prism`);
    expect(markup).toContain(`&quot;<bdi>${spoof("Mornings")}</bdi>&quot;`);
    // A response's words and its passage, each isolated from the words around them.
    const response = renderToStaticMarkup(
      createElement(NotificationText, {
        notification: {
          id: 2,
          userId: 1,
          prismId: 1,
          type: "annotation",
          actorName: "Grace",
          actorCount: 1,
          actors: ["Grace"],
          read: false,
          createdAt: new Date().toISOString(),
          annotationId: 1,
          annotationStatus: "pending",
          prismTitle: "Mornings",
          prismOwnerUsername: "ada",
          quote: spoof("Agreed"),
          passage: spoof("deep work"),
        },
      }),
    );
    expect(response).toContain(`“<bdi>${spoof("Agreed")}</bdi>”`);
    expect(response).toContain(`on “<bdi>${spoof("deep work")}</bdi>”`);
  });
});
