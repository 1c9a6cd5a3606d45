// The landing page: what Prism is, the one button that starts it, and an example prism to try.
import { Heart, Highlighter, Layers, MessageSquareQuote } from "lucide-react";
import { Suspense } from "react";
import { Link, useLocation } from "wouter";
import { lazyComponent } from "../../app/stale-scripts.ts";
import { Button } from "../../components/ui/button.tsx";
import { rememberPage } from "../../lib/storage.ts";
import { useCurrentUser } from "../auth/auth-queries.ts";

/**
 * The example prism's code (selection, dialog, highlights) is not part of every page's first
 * script: the server renders it whole, and the browser takes it over once its code is here.
 */
const ExamplePrism = lazyComponent(() => import("./example-prism.tsx"), "ExamplePrism");

const features = [
  {
    icon: Layers,
    title: "Prisms, in your own words",
    text: "Write short, titled sections about what you value and how you work: how you like feedback, when you do your best thinking, what to expect when you disagree. Order them the way you would tell them.",
  },
  {
    icon: Highlighter,
    title: "Answers anchored to a passage",
    text: "Readers select the exact words that struck them and respond right there. No comment threads about nothing in particular: every annotation points at something you said.",
  },
  {
    icon: MessageSquareQuote,
    title: "You decide what is public",
    text: "Every annotation waits for your approval. Keep the ones that add something, decline the rest, and your page stays a conversation you are glad to host.",
  },
  {
    icon: Heart,
    title: "Hearts that mean something",
    text: "A heart belongs to the words it was given for. Change a prism's title and its hearts start over, so what people loved is always what they read.",
  },
];

export function LandingPage() {
  const { user } = useCurrentUser();
  const [, navigate] = useLocation();

  function handleGetStarted() {
    rememberPage("/");
    navigate("/sign-in?tab=register");
  }

  return (
    <>
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-40 h-96 bg-gradient-to-r from-indigo-200/60 via-fuchsia-200/50 to-amber-100/60 blur-3xl"
        />
        <div className="relative mx-auto max-w-4xl px-4 pb-20 pt-20 text-center sm:pt-28">
          <p className="mx-auto w-fit rounded-full border border-border bg-background/70 px-3 py-1 text-sm text-muted-foreground">
            A better way to be known at work
          </p>
          <h1 className="mt-6 text-4xl font-semibold tracking-tight sm:text-6xl">
            Say who you are. <span className="prism-gradient-text">Be understood.</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
            Prism is a page of short sections, called prisms, about your values and your working
            style. Share it with a new team, a manager or a collaborator, and let them answer the
            parts that matter to them.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            {user ? (
              <Button size="lg" asChild>
                <Link to={`/${user.username}`}>My Profile</Link>
              </Button>
            ) : (
              <Button size="lg" onClick={handleGetStarted}>
                Get Started
              </Button>
            )}
            <Button size="lg" variant="outline" asChild>
              <Link to="/explore">Explore prisms</Link>
            </Button>
          </div>
        </div>
      </section>

      <section aria-labelledby="how-heading" className="border-t border-border bg-muted/40">
        <div className="mx-auto max-w-6xl px-4 py-20">
          <h2 id="how-heading" className="text-center text-3xl font-semibold tracking-tight">
            How Prism works
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-muted-foreground">
            The user manual you wish every colleague came with, written by them, and answered by the
            people who read it.
          </p>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2">
            {features.map(({ icon: Icon, title, text }) => (
              <li
                key={title}
                className="rounded-2xl border border-border bg-background p-6 shadow-sm"
              >
                <span className="inline-flex size-10 items-center justify-center rounded-xl bg-primary/10 text-primary">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-2 text-muted-foreground">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="example-heading" className="mx-auto max-w-3xl px-4 py-20">
        <h2 id="example-heading" className="text-center text-3xl font-semibold tracking-tight">
          What a prism reads like
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-muted-foreground">
          Try it as a reader would: select a few words and press Respond. You will see your response
          as the prism's owner does. Nothing you write here is saved.
        </p>
        <Suspense fallback={null}>
          <ExamplePrism />
        </Suspense>
      </section>
    </>
  );
}
