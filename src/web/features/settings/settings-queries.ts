// Profile Settings: saving the member's details, changing the password, connecting and
// disconnecting Google, and deleting the account; the member's followers on the fediverse.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Follower } from "../../../contract/federation.ts";
import type { PasswordChangeFormInput } from "../../../contract/password-reset.ts";
import { photoMessages } from "../../../contract/photo-messages.ts";
import type { CurrentUser, ProfileUpdate, ReauthInput } from "../../../contract/user.ts";
import { api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { saveFlashToast } from "../../lib/storage.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

export function useSaveProfile(onSaved: (user: CurrentUser) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ProfileUpdate) => api.put<CurrentUser>("/api/user/profile", values),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.currentUser, updated);
      queryClient.invalidateQueries({ queryKey: queryKeys.profile(updated.username) });
      onSaved(updated);
      toastSuccess("Profile updated", "Your profile has been updated successfully");
    },
    onError: (error) => toastError("Update failed", error.message),
  });
}

/** Uploads a photo (the file as it is: the server makes it square) or removes the member's. */
export function usePhoto() {
  const queryClient = useQueryClient();
  const saved = (updated: CurrentUser) => {
    queryClient.setQueryData(queryKeys.currentUser, updated);
    queryClient.invalidateQueries({ queryKey: queryKeys.profile(updated.username) });
  };
  const upload = useMutation({
    mutationFn: (file: File) => api.put<CurrentUser>("/api/user/photo", file),
    onSuccess: (updated) => {
      saved(updated);
      toastSuccess("Photo updated", photoMessages.uploaded);
    },
    onError: (error) => toastError("Upload failed", error.message),
  });
  const remove = useMutation({
    mutationFn: () => api.delete<CurrentUser>("/api/user/photo"),
    onSuccess: (updated) => {
      saved(updated);
      toastSuccess("Photo removed", photoMessages.removed);
    },
    onError: (error) => toastError("Update failed", error.message),
  });
  return { upload, remove };
}

/** Checks again whether the member's website links back to their Prism page with rel="me". */
export function useCheckWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CurrentUser>("/api/user/website/check"),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.currentUser, updated);
      queryClient.invalidateQueries({ queryKey: queryKeys.profile(updated.username) });
    },
    onError: (error) => toastError("Check failed", error.message),
  });
}

/** Changes the password (or chooses one); the member's other sessions end. */
export function useChangePassword(onChanged: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ confirmPassword: _confirm, ...values }: PasswordChangeFormInput) =>
      api.put<CurrentUser>("/api/user/password", values),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.currentUser, updated);
      onChanged();
      toastSuccess("Password changed", "You are signed out on your other devices.");
    },
    onError: (error) => toastError("Update failed", error.message),
  });
}

/** Confirms the password, then sends the browser through Google to connect it. */
export function useConnectGoogle() {
  return useMutation({
    mutationFn: (values: ReauthInput) => api.post("/api/user/google", values),
    onSuccess: () => window.location.assign("/auth/google?connect=1"),
    onError: (error) => toastError("Update failed", error.message),
  });
}

/** Disconnects Google; the member signs in with their password from then on. */
export function useDisconnectGoogle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ReauthInput) => api.delete<CurrentUser>("/api/user/google", values),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.currentUser, updated);
      toastSuccess("Google disconnected", "Sign in with your username and password from now on.");
    },
    onError: (error) => toastError("Update failed", error.message),
  });
}

/** Deletes the account, then loads / afresh: a full load clears every trace of the member from memory. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (values: ReauthInput) => api.delete("/api/user/account", values),
    onSuccess: () => {
      saveFlashToast({
        title: "Account deleted",
        description: "Your account has been permanently deleted",
      });
      window.location.assign("/");
    },
    onError: (error) => toastError("Delete failed", error.message),
  });
}

/** The member's followers on the fediverse: those waiting for them first. */
export function useFollowers() {
  return useQuery({
    queryKey: queryKeys.followers,
    queryFn: ({ signal }) => api.get<Follower[]>("/api/user/followers", { signal }),
  });
}

/** A change to one follower, then the list read again. */
function useFollowerChange(
  call: (follower: Follower) => Promise<unknown>,
  success: (follower: Follower) => string,
  failure: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (_answer, follower) => {
      toastSuccess(success(follower));
      await queryClient.invalidateQueries({ queryKey: queryKeys.followers });
    },
    onError: (error) => toastError(failure, error.message),
  });
}

/** How a follower is named: their handle, else their account's address. */
export const followerName = (follower: Follower) => follower.handle ?? follower.actor;

/** Accepts a follow waiting for the member: their server is told. */
export function useAcceptFollower() {
  return useFollowerChange(
    (follower) => api.post(`/api/user/followers/${follower.id}/accept`),
    (follower) => `${followerName(follower)} follows you now`,
    "Could not accept",
  );
}

/** Declines a waiting follow, or removes a follower: their server is told. */
export function useRemoveFollower() {
  return useFollowerChange(
    (follower) => api.delete(`/api/user/followers/${follower.id}`),
    (follower) =>
      follower.pending
        ? `Declined ${followerName(follower)}`
        : `${followerName(follower)} no longer follows you`,
    "Could not remove",
  );
}
