// The Terms of Service and Privacy Policy: what we expect of members, and what we keep about them.
import { type ReactNode, useEffect } from "react";
import { Link } from "wouter";
import { useHash } from "../../lib/router.tsx";

const linkClass =
  "font-medium text-primary underline underline-offset-2 hover:text-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2";

/** The page's sections and their parts: the table of contents and the text are both made from it. */
const sections: {
  id: string;
  title: string;
  parts: { id: string; title: string; body: ReactNode }[];
}[] = [
  {
    id: "terms-of-service",
    title: "Terms of Service",
    parts: [
      {
        id: "acceptance-of-terms",
        title: "Acceptance of terms",
        body: (
          <p>
            By creating an account or using Prism, as a member or as a visitor who hearts or
            annotates a prism, you agree to these terms. If you do not agree, please do not use
            Prism. When we change these terms, we update this page and the date at the top of it;
            using Prism after a change means you accept the new version.
          </p>
        ),
      },
      {
        id: "content-and-conduct",
        title: "Content and conduct",
        body: (
          <>
            <p>
              Your prisms are yours. You own what you write, and you are responsible for it. By
              publishing a prism you let us show it on your public page and to people exploring
              Prism, for as long as you keep it there.
            </p>
            <p>
              Annotations are answers to something you wrote. Every annotation on your prisms waits
              for your review: it only becomes public once you approve it, and you can reject the
              ones you do not want on your page. If you annotate someone else's prism, they decide
              whether it is shown.
            </p>
            <p>Whatever you write on Prism, in a prism or in an annotation, please do not post:</p>
            <ul className="list-disc space-y-2 pl-6">
              <li>harassment, threats, or attacks on a person or a group;</li>
              <li>spam, advertising, or the same message posted again and again;</li>
              <li>anything illegal, or anything you do not have the right to share.</li>
            </ul>
            <p>
              Prism's administrators may remove prisms or annotations that break these rules, with
              or without notice.
            </p>
          </>
        ),
      },
      {
        id: "account-termination",
        title: "Account termination",
        body: (
          <>
            <p>
              You can delete your account at any time from the Danger Zone in{" "}
              <Link to="/profile" className={linkClass}>
                Profile Settings
              </Link>
              . Deleting it is permanent and takes effect at once: your prisms, the hearts you gave,
              the annotations you wrote and your notifications are removed with it, and cannot be
              recovered.
            </p>
            <p>
              Administrators may deactivate an account that breaks these terms. A deactivated
              account can no longer be used until an administrator reactivates it.
            </p>
          </>
        ),
      },
      {
        id: "terms-contact",
        title: "Contact",
        body: (
          <p>
            Questions about these terms, or something on Prism you think breaks them? Write to us
            through the{" "}
            <Link to="/contact" className={linkClass}>
              contact form
            </Link>{" "}
            and a person will read it.
          </p>
        ),
      },
    ],
  },
  {
    id: "privacy-policy",
    title: "Privacy Policy",
    parts: [
      {
        id: "information-we-collect",
        title: "Information we collect",
        body: (
          <>
            <p>We keep only what Prism needs to work:</p>
            <ul className="list-disc space-y-3 pl-6">
              <li>
                <strong className="font-semibold">Account details.</strong> Your username, first and
                last name, email address, an optional display name, and the website, X and LinkedIn
                links you choose to add. If you sign up with a password, we store it only as a
                secure hash, never the password itself.
              </li>
              <li>
                <strong className="font-semibold">What you publish.</strong> Your prisms, their
                order, and their heart counts.
              </li>
              <li>
                <strong className="font-semibold">Hearts and annotations.</strong> The prisms you
                heart, and the annotations you leave: the passage you selected, what you wrote, and
                when.
              </li>
              <li>
                <strong className="font-semibold">Anonymous visitors.</strong> When you visit Prism,
                your browser is given a cookie holding a random identifier, so that hearts and
                annotations you leave without signing in are counted once and recognised as yours.
                It says nothing about who you are, and we never store the identifier itself, only a
                keyed hash of it. If you give a name or an email address with an annotation, we keep
                them with it: the name is shown as its author, and the email address is never shown
                publicly.
              </li>
              <li>
                <strong className="font-semibold">Session cookie.</strong> When you sign in, we set
                a session cookie that keeps you signed in. Scripts on the page cannot read it, and
                it expires after 30 days without use or when you log out.
              </li>
              <li>
                <strong className="font-semibold">Last active time.</strong> We note when you last
                used Prism while signed in, which helps us see how the site is used and spot
                abandoned accounts.
              </li>
              <li>
                <strong className="font-semibold">Google sign-in.</strong> If you sign in with
                Google, Google shares your name, email address and profile picture with us. We do
                not receive your Google password or anything else from your Google account.
              </li>
              <li>
                <strong className="font-semibold">Messages to us.</strong> If you use the contact
                form, we keep your name, email address and message so that we can reply.
              </li>
            </ul>
          </>
        ),
      },
      {
        id: "use-of-information",
        title: "Use of information",
        body: (
          <>
            <p>We use this information to:</p>
            <ul className="list-disc space-y-2 pl-6">
              <li>
                run Prism, keep you signed in, and show your public page to the people you share it
                with;
              </li>
              <li>notify you when someone hearts or annotates one of your prisms;</li>
              <li>let administrators moderate content and accounts;</li>
              <li>prevent abuse, for example by limiting repeated failed sign-in attempts;</li>
              <li>answer the messages you send us.</li>
            </ul>
            <p>
              We do not sell your data, and we do not share it with advertisers. Prism has no
              advertising, no analytics services and no third-party trackers. Besides the two
              cookies described above, the only other one is a short-lived cookie that secures a
              Google sign-in while it is in progress.
            </p>
          </>
        ),
      },
      {
        id: "privacy-contact",
        title: "Contact",
        body: (
          <p>
            Want to know what we hold about you, correct it, or have it removed? You can edit your
            details in Profile Settings and delete your account there at any time. For anything
            else, reach us through the{" "}
            <Link to="/contact" className={linkClass}>
              contact form
            </Link>
            .
          </p>
        ),
      },
    ],
  },
];

export function TermsPage() {
  const hash = useHash();

  // The page loads on demand, so the browser's own jump to a #section may come too early.
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);

  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:py-20">
      <header>
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">
          Terms of Service and <span className="prism-gradient-text">Privacy Policy</span>
        </h1>
        <p className="mt-3 text-sm text-muted-foreground">
          Last updated: <time dateTime="2026-11-22">November 22, 2026</time>
        </p>
        <p className="mt-6 text-lg leading-relaxed text-muted-foreground">
          Prism is a place to say who you are and how you work, and to be answered thoughtfully.
          This page explains the few rules that keep it that way, and exactly what we keep about you
          and why. We have tried to write it in plain words.
        </p>
      </header>

      <nav
        aria-labelledby="toc-heading"
        className="mt-10 rounded-2xl border border-border bg-muted/40 p-6"
      >
        <h2 id="toc-heading" className="text-sm font-semibold uppercase tracking-wide">
          On this page
        </h2>
        <ol className="mt-4 space-y-4 text-sm">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="font-medium hover:text-primary hover:underline">
                {section.title}
              </a>
              <ol className="mt-2 space-y-1.5 border-l border-border pl-4">
                {section.parts.map((child) => (
                  <li key={child.id}>
                    <a
                      href={`#${child.id}`}
                      className="text-muted-foreground hover:text-primary hover:underline"
                    >
                      {child.title}
                    </a>
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ol>
      </nav>

      {sections.map((section) => (
        <Section key={section.id} id={section.id} title={section.title}>
          {section.parts.map((part) => (
            <Subsection key={part.id} id={part.id} title={part.title}>
              {part.body}
            </Subsection>
          ))}
        </Section>
      ))}
    </article>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-16 border-t border-border pt-12">
      <h2 id={id} className="scroll-mt-24 text-2xl font-semibold tracking-tight sm:text-3xl">
        {title}
      </h2>
      <div className="mt-8 space-y-10">{children}</div>
    </section>
  );
}

function Subsection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <div>
      <h3 id={id} className="scroll-mt-24 text-xl font-semibold">
        {title}
      </h3>
      <div className="mt-3 space-y-4 leading-relaxed text-foreground/90">{children}</div>
    </div>
  );
}
