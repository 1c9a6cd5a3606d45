// /auth and /sign-in: the Sign in and Create account tabs.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { type FieldValues, type Path, type UseFormReturn, useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import {
  type LoginInput,
  loginSchema,
  type RegisterFormInput,
  registerFormSchema,
} from "../../../contract/auth.ts";
import type { CurrentUser } from "../../../contract/user.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs.tsx";
import { ApiError, api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { takeRememberedPage } from "../../lib/storage.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { useCurrentUser } from "./use-current-user.ts";

type Mode = "auth" | "sign-in";

function applyServerErrors<T extends FieldValues>(form: UseFormReturn<T>, error: unknown) {
  if (!(error instanceof ApiError) || !error.errors) return;
  for (const [field, message] of Object.entries(error.errors)) {
    form.setError(field as Path<T>, { message });
  }
}

export function AuthPage({ mode }: { mode: Mode }) {
  const { user, isLoading } = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "register" ? "register" : "login";
  const justSignedIn = useRef(false);

  // A signed-in visitor goes to the remembered page (then forgotten), else to their profile.
  useEffect(() => {
    if (!isLoading && user && !justSignedIn.current) {
      navigate(takeRememberedPage() ?? `/${user.username}`, { replace: true });
    }
  }, [isLoading, user, navigate]);

  function signedIn(signedInUser: CurrentUser) {
    justSignedIn.current = true;
    const destination =
      mode === "auth"
        ? `/${signedInUser.username}`
        : (takeRememberedPage() ?? `/${signedInUser.username}`);
    queryClient.setQueryData(queryKeys.currentUser, signedInUser);
    navigate(destination, { replace: true });
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

  const login = useMutation({
    mutationFn: (input: LoginInput) =>
      api.post<CurrentUser>("/api/login", input, { errorPage: false }),
    onSuccess: (signedInUser) => {
      toastSuccess("Login successful", `Welcome back, ${signedInUser.username}!`);
      signedIn(signedInUser);
    },
    onError: (error) => {
      applyServerErrors(loginForm, error);
      toastError("Login failed", error.message);
    },
  });

  const register = useMutation({
    mutationFn: ({ confirmPassword: _confirm, ...input }: RegisterFormInput) =>
      api.post<CurrentUser>("/api/register", input, { errorPage: false }),
    onSuccess: (signedInUser) => {
      toastSuccess("Registration successful", "Your account has been created.");
      signedIn(signedInUser);
    },
    onError: (error) => {
      applyServerErrors(registerForm, error);
      toastError("Registration failed", error.message);
    },
  });

  const loginErrors = loginForm.formState.errors;
  const registerErrors = registerForm.formState.errors;

  return (
    <div className="mx-auto flex w-full max-w-md flex-col px-4 py-12 sm:py-16">
      <title>{mode === "auth" ? "Sign in or create an account | Prism" : "Sign in | Prism"}</title>
      <h1 className="text-center text-3xl font-semibold tracking-tight">
        {tab === "login" ? "Welcome back" : "Join Prism"}
      </h1>
      <p className="mt-2 text-center text-muted-foreground">
        {tab === "login"
          ? "Sign in to write your prisms and answer the people who read them."
          : "Tell people who you are and how you work."}
      </p>
      <Card className="mt-8 p-6">
        <Tabs
          value={tab}
          onValueChange={(value) =>
            setParams(value === "register" ? { tab: "register" } : {}, { replace: true })
          }
        >
          <TabsList>
            <TabsTrigger value="login">Sign in</TabsTrigger>
            <TabsTrigger value="register">Create account</TabsTrigger>
          </TabsList>

          <TabsContent value="login">
            <form
              noValidate
              className="grid gap-4"
              onSubmit={loginForm.handleSubmit((values) => login.mutate(values))}
            >
              <Field
                label="Username"
                autoComplete="username"
                error={loginErrors.username?.message}
                {...loginForm.register("username")}
              />
              <Field
                label="Password"
                type="password"
                autoComplete="current-password"
                error={loginErrors.password?.message}
                {...loginForm.register("password")}
              />
              <Link
                to="/forgot-password"
                className="-mt-2 justify-self-end text-sm text-muted-foreground underline underline-offset-2 hover:text-foreground"
              >
                Forgot password?
              </Link>
              <Button type="submit" disabled={login.isPending} className="mt-2 w-full">
                {login.isPending ? "Signing in..." : "Sign in"}
              </Button>
            </form>
          </TabsContent>

          <TabsContent value="register">
            <form
              noValidate
              className="grid gap-4"
              onSubmit={registerForm.handleSubmit((values) => register.mutate(values))}
            >
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label="First name"
                  autoComplete="given-name"
                  error={registerErrors.firstName?.message}
                  {...registerForm.register("firstName")}
                />
                <Field
                  label="Last name"
                  autoComplete="family-name"
                  error={registerErrors.lastName?.message}
                  {...registerForm.register("lastName")}
                />
              </div>
              <Field
                label="Username"
                autoComplete="username"
                hint="Your page will live at /your-username."
                error={registerErrors.username?.message}
                {...registerForm.register("username")}
              />
              <Field
                label="Email"
                type="email"
                autoComplete="email"
                error={registerErrors.email?.message}
                {...registerForm.register("email")}
              />
              <Field
                label="Password"
                type="password"
                autoComplete="new-password"
                error={registerErrors.password?.message}
                {...registerForm.register("password")}
              />
              <Field
                label="Confirm password"
                type="password"
                autoComplete="new-password"
                error={registerErrors.confirmPassword?.message}
                {...registerForm.register("confirmPassword")}
              />
              <Button type="submit" disabled={register.isPending} className="mt-2 w-full">
                {register.isPending ? "Creating account..." : "Create account"}
              </Button>
            </form>
          </TabsContent>
        </Tabs>

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
      </Card>
      <p className="mt-6 text-center text-xs text-muted-foreground">
        By creating an account, you agree to our{" "}
        <Link to="/terms-privacy" className="underline underline-offset-2 hover:text-foreground">
          Terms of Service and Privacy Policy
        </Link>
        .
      </p>
    </div>
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
