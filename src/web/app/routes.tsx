// Every page of Prism and where it lives. Pages other than the landing page load on demand.
import { lazy } from "react";
import { type RouteObject, useRoutes } from "react-router";
import { RequireAdmin, RequireUser } from "../features/auth/require-user.tsx";
import { NotFoundPage } from "../features/errors/not-found-page.tsx";
import { LandingPage } from "../features/landing/landing-page.tsx";
import { Layout } from "./layout.tsx";

const AuthPage = lazy(() =>
  import("../features/auth/auth-page.tsx").then((m) => ({ default: m.AuthPage })),
);
const AuthCallbackPage = lazy(() =>
  import("../features/auth/auth-callback-page.tsx").then((m) => ({ default: m.AuthCallbackPage })),
);
const CatalystPage = lazy(() =>
  import("../features/catalyst/catalyst-page.tsx").then((m) => ({ default: m.CatalystPage })),
);
const ContactPage = lazy(() =>
  import("../features/contact/contact-page.tsx").then((m) => ({ default: m.ContactPage })),
);
const ErrorPage = lazy(() =>
  import("../features/errors/error-page.tsx").then((m) => ({ default: m.ErrorPage })),
);
const ExplorePage = lazy(() =>
  import("../features/explore/explore-page.tsx").then((m) => ({ default: m.ExplorePage })),
);
const ProfilePage = lazy(() =>
  import("../features/profile/profile-page.tsx").then((m) => ({ default: m.ProfilePage })),
);
const NotificationsPage = lazy(() =>
  import("../features/notifications/notifications-page.tsx").then((m) => ({
    default: m.NotificationsPage,
  })),
);
const SettingsPage = lazy(() =>
  import("../features/settings/settings-page.tsx").then((m) => ({ default: m.SettingsPage })),
);

const ForgotPasswordPage = lazy(() =>
  import("../features/password-reset/forgot-password-page.tsx").then((m) => ({
    default: m.ForgotPasswordPage,
  })),
);
const ResetPasswordPage = lazy(() =>
  import("../features/password-reset/reset-password-page.tsx").then((m) => ({
    default: m.ResetPasswordPage,
  })),
);
const TermsPage = lazy(() =>
  import("../features/terms/terms-page.tsx").then((m) => ({ default: m.TermsPage })),
);
const DebugPage = lazy(() =>
  import("../features/diagnostics/debug-page.tsx").then((m) => ({ default: m.DebugPage })),
);
const ErrorDemoPage = lazy(() =>
  import("../features/diagnostics/error-demo-page.tsx").then((m) => ({
    default: m.ErrorDemoPage,
  })),
);

const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: "/", element: <LandingPage /> },
      { path: "/sign-in", element: <AuthPage mode="sign-in" /> },
      { path: "/auth", element: <AuthPage mode="auth" /> },
      { path: "/auth/callback", element: <AuthCallbackPage /> },
      {
        path: "/profile",
        element: (
          <RequireUser>
            <SettingsPage />
          </RequireUser>
        ),
      },
      {
        path: "/notifications",
        element: (
          <RequireUser>
            <NotificationsPage />
          </RequireUser>
        ),
      },
      {
        path: "/catalyst",
        element: (
          <RequireAdmin>
            <CatalystPage />
          </RequireAdmin>
        ),
      },
      { path: "/contact", element: <ContactPage /> },
      { path: "/error", element: <ErrorPage /> },
      { path: "/terms-privacy", element: <TermsPage /> },
      { path: "/explore", element: <ExplorePage /> },
      { path: "/debug", element: <DebugPage /> },
      { path: "/error-demo", element: <ErrorDemoPage /> },
      { path: "/forgot-password", element: <ForgotPasswordPage /> },
      { path: "/reset-password", element: <ResetPasswordPage /> },
      { path: "/:username", element: <ProfilePage /> },
      { path: "/:username/:prismSlug", element: <ProfilePage /> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];

/** The page for the current address (the browser router or, on the server, a static one). */
export function AppRoutes() {
  return useRoutes(routes);
}
