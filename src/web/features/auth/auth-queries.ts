// The signed-in member (null when signed out), refetched on focus as the spec asks; signing in,
// creating an account and logging out; and which services this server has (Google, mail).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { LoginInput, RegisterFormInput } from "../../../contract/auth.ts";
import type { SiteServices } from "../../../contract/site.ts";
import type { CurrentUser } from "../../../contract/user.ts";
import { ApiError, api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { saveFlashToast } from "../../lib/storage.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await api.get<CurrentUser>("/api/user");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useCurrentUser() {
  const query = useQuery({
    queryKey: queryKeys.currentUser,
    queryFn: fetchCurrentUser,
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: true,
    retry: 3,
    retryDelay: 1000,
  });
  return { user: query.data ?? null, isLoading: query.isPending, query };
}

/**
 * Whether this server has Google sign-in and outgoing mail; undefined until known (a page
 * rendered on the server comes with it). What needs a missing one is hidden or explained.
 */
export function useSiteServices(): SiteServices | undefined {
  return useQuery({
    queryKey: queryKeys.siteServices,
    queryFn: ({ signal }) => api.get<SiteServices>("/api/site", { signal }),
  }).data;
}

/** Fetches the member afresh (after Google sign-in); the promise fails when the request does. */
export function useRefetchCurrentUser() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient.fetchQuery({
        queryKey: queryKeys.currentUser,
        queryFn: fetchCurrentUser,
        staleTime: 0,
      }),
    [queryClient],
  );
}

/** Puts the member just signed in into the cache, where every page that shows the member reads it. */
export function useSetCurrentUser() {
  const queryClient = useQueryClient();
  return useCallback(
    (user: CurrentUser) => queryClient.setQueryData(queryKeys.currentUser, user),
    [queryClient],
  );
}

export function useLogin(onSignedIn: (user: CurrentUser) => Promise<void>) {
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<CurrentUser>("/api/login", input),
    onSuccess: (user) => {
      toastSuccess("Login successful", `Welcome back, ${user.username}!`);
      // The mutation stays pending (the form busy) until the member's page is ready to show.
      return onSignedIn(user);
    },
    onError: (error) => toastError("Login failed", error.message),
  });
}

export function useRegister(onSignedIn: (user: CurrentUser) => Promise<void>) {
  return useMutation({
    mutationFn: ({ confirmPassword: _confirm, ...input }: RegisterFormInput) =>
      api.post<CurrentUser>("/api/register", input),
    onSuccess: (user) => {
      toastSuccess("Registration successful", "Your account has been created.");
      return onSignedIn(user);
    },
    onError: (error) => toastError("Registration failed", error.message),
  });
}

/** Logs out, then reloads the page (the spec's rule), saying so once it has reloaded. */
export function useLogout() {
  return useMutation({
    mutationFn: async () => {
      try {
        await api.post("/api/logout");
      } catch (error) {
        throw new Error(
          `Logout failed with status: ${error instanceof ApiError ? error.status : 0}`,
        );
      }
    },
    onSuccess: () => {
      saveFlashToast({
        title: "Logged out",
        description: "You have been logged out successfully.",
      });
      window.location.reload();
    },
    onError: (error) => toastError("Logout failed", error.message),
  });
}
