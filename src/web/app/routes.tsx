// Every page of Prism and where it lives. Pages load on demand, each with its own script (a page
// script that fails to load reloads the page once: stale-scripts.ts).
import { type ComponentType, isValidElement, type ReactNode, Suspense } from "react";
import { parse as parsePattern } from "regexparam";
import { matchRoute, Route, Switch } from "wouter";
import { PageSkeleton } from "../components/ui/skeleton.tsx";
import { RequireAdmin, RequireUser } from "../features/auth/require-user.tsx";
import { NotFoundPage } from "../features/errors/not-found-page.tsx";
import { ProfileSkeleton } from "../features/profile/profile-skeleton.tsx";
import { PageHead, type PageHeadProps, siteTitle } from "../lib/page-head.tsx";
import { Layout } from "./layout.tsx";
import { lazyComponent } from "./stale-scripts.ts";

/** The pages that load on demand, by path (the not-found page comes with the app). */
const pageModules = import.meta.glob<Record<string, unknown>>([
  "../features/*/*-page.tsx",
  "!../features/errors/not-found-page.tsx",
]);

/**
 * A page whose code loads on demand (`lazyComponent`). `module` names its source for the build's
 * manifest (the server sends the page's script with it).
 */
function lazyPage<P extends object = object>(path: string, name: string) {
  const load = pageModules[path] as (() => Promise<Record<string, ComponentType<P>>>) | undefined;
  if (!load) throw new Error(`No page at ${path}`);
  return Object.assign(lazyComponent(load, name), { module: path.replace(/^\.\.\//, "") });
}

const AuthPage = lazyPage<{ mode: "sign-in" | "auth"; preloadNext?: () => void }>(
  "../features/auth/auth-page.tsx",
  "AuthPage",
);
const AuthCallbackPage = lazyPage("../features/auth/auth-callback-page.tsx", "AuthCallbackPage");
const CatalystPage = lazyPage("../features/catalyst/catalyst-page.tsx", "CatalystPage");
const ContactPage = lazyPage("../features/contact/contact-page.tsx", "ContactPage");
const ErrorPage = lazyPage("../features/errors/error-page.tsx", "ErrorPage");
const ExplorePage = lazyPage("../features/explore/explore-page.tsx", "ExplorePage");
const LandingPage = lazyPage("../features/landing/landing-page.tsx", "LandingPage");
const ProfilePage = lazyPage("../features/profile/profile-page.tsx", "ProfilePage");
const NotificationsPage = lazyPage(
  "../features/notifications/notifications-page.tsx",
  "NotificationsPage",
);
const SettingsPage = lazyPage("../features/settings/settings-page.tsx", "SettingsPage");
const FollowersPage = lazyPage("../features/settings/followers-page.tsx", "FollowersPage");
const ForgotPasswordPage = lazyPage(
  "../features/password-reset/forgot-password-page.tsx",
  "ForgotPasswordPage",
);
const ResetPasswordPage = lazyPage(
  "../features/password-reset/reset-password-page.tsx",
  "ResetPasswordPage",
);
const ResponseStatusPage = lazyPage(
  "../features/annotations/response-status-page.tsx",
  "ResponseStatusPage",
);
const ReviewPage = lazyPage("../features/annotations/review-page.tsx", "ReviewPage");
const TeamsPage = lazyPage("../features/teams/teams-page.tsx", "TeamsPage");
const UnsubscribePage = lazyPage("../features/email/unsubscribe-page.tsx", "UnsubscribePage");
const TermsPage = lazyPage("../features/terms/terms-page.tsx", "TermsPage");
const DebugPage = lazyPage("../features/diagnostics/debug-page.tsx", "DebugPage");
const ErrorDemoPage = lazyPage("../features/diagnostics/error-demo-page.tsx", "ErrorDemoPage");

/** A page that shows `skeleton`, its layout, while its script loads. */
function withSkeleton(skeleton: ReactNode, page: ReactNode) {
  return <Suspense fallback={skeleton}>{page}</Suspense>;
}

/**
 * Where a member lands once signed in is a member's page: its code loads while they fill in the
 * form, so that the page is there at once, not its skeleton.
 */
const preloadMemberPage = () => void ProfilePage.preload();

const settingsSkeleton = (
  <PageSkeleton title="Profile Settings" label="Loading Profile Settings..." />
);
const notificationsSkeleton = (
  <PageSkeleton title="Notifications" label="Loading notifications..." />
);

const errorPage = "noindex, follow";
const privatePage = "noindex, nofollow";

/**
 * The pages by path, in the order they are tried: the first whose pattern matches is shown, with
 * its head (its canonical address is its path). A page whose head depends on what it shows (a
 * member, an error) writes its own.
 */
const routes: { path: string; head?: Omit<PageHeadProps, "path">; element: ReactNode }[] = [
  { path: "/", head: { title: siteTitle }, element: <LandingPage /> },
  {
    path: "/sign-in",
    head: { title: "Sign in | Prism" },
    element: <AuthPage mode="sign-in" preloadNext={preloadMemberPage} />,
  },
  {
    path: "/auth",
    head: { title: "Sign in or create an account | Prism" },
    element: <AuthPage mode="auth" preloadNext={preloadMemberPage} />,
  },
  { path: "/auth/callback", head: { title: "Signing in | Prism" }, element: <AuthCallbackPage /> },
  {
    path: "/profile",
    head: { title: "Profile Settings | Prism", robots: privatePage },
    element: (
      <RequireUser fallback={settingsSkeleton}>
        {withSkeleton(settingsSkeleton, <SettingsPage />)}
      </RequireUser>
    ),
  },
  {
    path: "/profile/followers",
    head: { title: "Followers on the fediverse | Prism", robots: privatePage },
    element: (
      <RequireUser>
        <FollowersPage />
      </RequireUser>
    ),
  },
  {
    path: "/notifications",
    head: { title: "Notifications | Prism", robots: privatePage },
    element: (
      <RequireUser fallback={notificationsSkeleton}>
        {withSkeleton(notificationsSkeleton, <NotificationsPage />)}
      </RequireUser>
    ),
  },
  {
    path: "/review",
    head: { title: "Review responses | Prism", robots: privatePage },
    element: (
      <RequireUser>
        <ReviewPage />
      </RequireUser>
    ),
  },
  {
    path: "/catalyst",
    head: { title: "Catalyst: Admin Dashboard | Prism", robots: privatePage },
    element: (
      <RequireAdmin>
        <CatalystPage />
      </RequireAdmin>
    ),
  },
  { path: "/contact", head: { title: "Contact | Prism" }, element: <ContactPage /> },
  {
    path: "/responses/:token",
    head: { title: "Your response | Prism", robots: privatePage },
    element: <ResponseStatusPage />,
  },
  { path: "/error", element: <ErrorPage /> },
  {
    path: "/terms-privacy",
    head: {
      title: "Terms of Service and Privacy Policy | Prism",
      description:
        "The rules for publishing and answering on Prism, and what Prism keeps about you and why.",
    },
    element: <TermsPage />,
  },
  {
    path: "/explore",
    head: {
      title: "Explore Prism",
      description:
        "Meet Prism's members through their ideas, and read the prisms people love most.",
    },
    element: <ExplorePage />,
  },
  {
    path: "/debug",
    head: { title: "Diagnostics | Prism", robots: privatePage },
    element: <DebugPage />,
  },
  {
    path: "/error-demo",
    head: { title: "Error handling demo | Prism", robots: errorPage },
    element: <ErrorDemoPage />,
  },
  {
    path: "/forgot-password",
    head: { title: "Forgot password | Prism" },
    element: <ForgotPasswordPage />,
  },
  {
    path: "/reset-password",
    head: { title: "Reset password | Prism" },
    element: <ResetPasswordPage />,
  },
  {
    path: "/teams/:slug?",
    element: (
      <RequireUser>
        <TeamsPage />
      </RequireUser>
    ),
  },
  {
    path: "/invites/:token",
    head: { title: "Join a team | Prism", robots: privatePage },
    element: <TeamsPage />,
  },
  {
    path: "/unsubscribe",
    head: { title: "Unsubscribe | Prism", robots: privatePage },
    element: <UnsubscribePage />,
  },
  { path: "/:username", element: withSkeleton(<ProfileSkeleton />, <ProfilePage />) },
  { path: "/:username/:prismSlug", element: withSkeleton(<ProfileSkeleton />, <ProfilePage />) },
];

interface LazyPage {
  preload: () => Promise<void>;
  module: string;
}

/** The code-split pages an element shows (looking through wrappers such as RequireUser). */
function pagesIn(node: ReactNode): LazyPage[] {
  if (!isValidElement<{ children?: ReactNode }>(node)) return [];
  const type = node.type as Partial<LazyPage>;
  const own = type.preload && type.module ? [type as LazyPage] : [];
  return [...own, ...pagesIn(node.props.children)];
}

/** A path as wouter matches it: its percent escapes decoded as `decodeURI` does, when they can be. */
function decodedPath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/** The code-split pages at `pathname`. */
function pagesAt(pathname: string): LazyPage[] {
  // The same patterns, order and decoding as <Switch> below, matched by wouter's own parser.
  const path = decodedPath(pathname);
  const route = routes.find((candidate) => matchRoute(parsePattern, candidate.path, path)[0]);
  return route ? pagesIn(route.element) : [];
}

/** Loads the code of the page at `pathname`; resolves with its modules once it is here. */
export async function preloadPage(pathname: string): Promise<string[]> {
  const pages = pagesAt(pathname);
  await Promise.all(pages.map((page) => page.preload()));
  return pages.map((page) => page.module);
}

/**
 * The page for the current address, in the site's frame (the address is the browser's or, on the
 * server, the one its <Router ssrPath> gives); an address no route matches is not found.
 */
export function AppRoutes() {
  return (
    <Layout>
      <Switch>
        {routes.map(({ path, head, element }) => (
          <Route key={path} path={path}>
            {head ? <PageHead path={path} {...head} /> : null}
            {element}
          </Route>
        ))}
        <Route>
          <NotFoundPage />
        </Route>
      </Switch>
    </Layout>
  );
}
