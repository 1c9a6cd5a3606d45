// Every page of Prism and where it lives.
import { createBrowserRouter } from "react-router";
import { Layout } from "./components/layout/layout.tsx";
import { AuthCallbackPage } from "./features/auth/auth-callback-page.tsx";
import { AuthPage } from "./features/auth/auth-page.tsx";
import { RequireUser } from "./features/auth/require-user.tsx";
import { ErrorPage } from "./features/errors/error-page.tsx";
import { NotFoundPage } from "./features/errors/not-found-page.tsx";
import { LandingPage } from "./features/landing/landing-page.tsx";
import { ProfilePage } from "./features/profile/profile-page.tsx";
import { SettingsPage } from "./features/settings/settings-page.tsx";

export const router = createBrowserRouter([
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
      { path: "/error", element: <ErrorPage /> },
      { path: "/:username", element: <ProfilePage /> },
      { path: "/:username/:prismSlug", element: <ProfilePage /> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
]);
