// /auth and /sign-in: the Sign in and Create account tabs.
import { zodResolver } from "@hookform/resolvers/zod";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { Link, useLocation, useSearchParams } from "wouter";
import {
  type LoginInput,
  loginSchema,
  type RegisterFormInput,
  registerFormSchema,
} from "../../../contract/auth.ts";
import type { CurrentUser } from "../../../contract/user.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field } from "../../components/ui/field.tsx";
import { bindFields, Form, FormError, SubmitButton } from "../../components/ui/form.tsx";
import { FormPage } from "../../components/ui/form-page.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs.tsx";
import { firstStepsState } from "../../lib/first-steps.ts";
import { focusNextHeading } from "../../lib/focus-heading.ts";
import { takeRememberedPage } from "../../lib/storage.ts";
import {
  useCurrentUser,
  useLogin,
  useRegister,
  useSetCurrentUser,
  useSiteServices,
} from "./auth-queries.ts";

type Mode = "auth" | "sign-in";

/** The Create account fields below the first and last name. */
const registerFields: {
  name: Exclude<keyof RegisterFormInput, "firstName" | "lastName">;
  label: string;
  type?: string;
  autoComplete: string;
  hint?: string;
}[] = [
  {
    name: "username",
    label: "Username",
    autoComplete: "username",
    hint: "Your page will live at /your-username.",
  },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "password", label: "Password", type: "password", autoComplete: "new-password" },
  {
    name: "confirmPassword",
    label: "Confirm password",
    type: "password",
    autoComplete: "new-password",
  },
];

/**
 * Loads a member's own page (its code, which the form preloads, then its member and prisms as
 * the member just signed in sees them), so that it shows whole at once instead of its skeleton.
 * Settles either way: what failed, the page loads itself.
 */
async function prepareOwnPage(client: QueryClient, username: string) {
  const page = await import("../profile/profile-page.tsx").catch(() => null);
  await page?.prefetchOwnPage(client, username);
}

export function AuthPage({
  mode,
  preloadNext,
}: {
  mode: Mode;
  /** Loads the code of the page a member lands on once signed in, while the form is filled in. */
  preloadNext?: () => void;
}) {
  useEffect(() => preloadNext?.(), [preloadNext]);
  const { user, isLoading } = useCurrentUser();
  const services = useSiteServices();
  const setCurrentUser = useSetCurrentUser();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "register" ? "register" : "login";
  const justSignedIn = useRef(false);

  // A signed-in visitor goes to the remembered page (then forgotten), else to their profile.
  useEffect(() => {
    if (!isLoading && user && !justSignedIn.current) {
      navigate(takeRememberedPage() ?? `/${user.username}`, { replace: true });
    }
  }, [isLoading, user, navigate]);

  /**
   * Where the member lands once signed in. Their own page comes once its member and prisms are in
   * the cache as the member sees them, so that it shows whole, not its skeleton; the form stays
   * busy ("Signing in...") meanwhile.
   */
  async function signedIn(signedInUser: CurrentUser) {
    justSignedIn.current = true;
    const remembered = mode === "auth" ? null : takeRememberedPage();
    setCurrentUser(signedInUser);
    if (!remembered) await prepareOwnPage(queryClient, signedInUser.username);
    focusNextHeading();
    navigate(remembered ?? `/${signedInUser.username}`, { replace: true });
  }

  /**
   * A new account starts on its own page, writing its first prism (wherever the form was), unless
   * it was made to join a team by an invite link: then it goes back to the link, which joins.
   */
  async function registered(newUser: CurrentUser) {
    justSignedIn.current = true;
    const remembered = takeRememberedPage();
    setCurrentUser(newUser);
    if (remembered?.startsWith("/invites/")) {
      navigate(remembered, { replace: true });
      return;
    }
    await prepareOwnPage(queryClient, newUser.username);
    navigate(`/${newUser.username}`, { replace: true, state: firstStepsState });
  }

  const loginForm = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });
  const registerForm = useForm<RegisterFormInput>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: {
      username: "",
      email: "",
      firstName: "",
      lastName: "",
      password: "",
      confirmPassword: "",
    },
  });
  const login = useLogin(signedIn);
  const register = useRegister(registered);
  const loginField = bindFields(loginForm);
  const registerField = bindFields(registerForm);

  return (
    <FormPage
      heading={tab === "login" ? "Welcome back" : "Join Prism"}
      lead={
        tab === "login"
          ? "Sign in to write your prisms and answer the people who read them."
          : "Tell people who you are and how you work."
      }
      footer={
        <p className="mt-6 text-center text-xs text-muted-foreground">
          By creating an account, you agree to our{" "}
          <Link to="/terms-privacy" className="underline underline-offset-2 hover:text-foreground">
            Terms of Service and Privacy Policy
          </Link>
          .
        </p>
      }
    >
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setParams(value === "register" ? { tab: "register" } : {}, { replace: true })
        }
      >
        <TabsList>
          <TabsTrigger value="login" className="flex-1">
            Sign in
          </TabsTrigger>
          <TabsTrigger value="register" className="flex-1">
            Create account
          </TabsTrigger>
        </TabsList>

        {/* Each panel opens with a field: Tab goes from the tabs straight to it. */}
        <TabsContent value="login" tabIndex={-1}>
          <Form form={loginForm} mutation={login}>
            <Field label="Username" autoComplete="username" {...loginField("username")} />
            <Field
              label="Password"
              type="password"
              autoComplete="current-password"
              {...loginField("password")}
            />
            <Link
              to="/forgot-password"
              className="-mt-2 justify-self-end text-sm text-muted-foreground underline underline-offset-2 hover:text-foreground"
            >
              Forgot password?
            </Link>
            <FormError />
            <SubmitButton
              pending={login.isPending}
              pendingLabel="Signing in..."
              className="mt-2 w-full"
            >
              Sign in
            </SubmitButton>
          </Form>
        </TabsContent>

        <TabsContent value="register" tabIndex={-1}>
          <Form form={registerForm} mutation={register}>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="First name" autoComplete="given-name" {...registerField("firstName")} />
              <Field label="Last name" autoComplete="family-name" {...registerField("lastName")} />
            </div>
            {registerFields.map(({ name, ...props }) => (
              <Field key={name} {...props} {...registerField(name)} />
            ))}
            <FormError />
            <SubmitButton
              pending={register.isPending}
              pendingLabel="Creating account..."
              className="mt-2 w-full"
            >
              Create account
            </SubmitButton>
          </Form>
        </TabsContent>
      </Tabs>

      {/* Offered only where the server has Google sign-in: elsewhere it could only fail. */}
      {services?.googleSignIn ? (
        <>
          <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wide text-muted-foreground">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <Button asChild variant="outline" className="w-full">
            <a href="/auth/google">
              <GoogleMark />
              Continue with Google
            </a>
          </Button>
        </>
      ) : null}
    </FormPage>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path
        fill="#4285F4"
        d="M22.5 12.3c0-.8-.1-1.5-.2-2.3H12v4.3h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2-1.9 3.2-4.7 3.2-8Z"
      />
      <path
        fill="#34A853"
        d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23Z"
      />
      <path fill="#FBBC05" d="M5.8 14.2a6.6 6.6 0 0 1 0-4.3V7H2.1a11 11 0 0 0 0 9.9l3.7-2.8Z" />
      <path
        fill="#EA4335"
        d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7l3.7 2.9C6.7 7.3 9.1 5.4 12 5.4Z"
      />
    </svg>
  );
}
