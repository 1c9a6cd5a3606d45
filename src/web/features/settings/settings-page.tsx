// /profile: Profile Settings and the Danger Zone.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Mail } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type CurrentUser,
  type ProfileUpdate,
  type ProfileUpdateInput,
  profileUpdateSchema,
} from "../../../contract/user.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { ApiError, api } from "../../lib/api.ts";
import { queryKeys } from "../../lib/query.ts";
import { saveFlashToast } from "../../lib/storage.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { useCurrentUser } from "../auth/use-current-user.ts";

function formValues(user: CurrentUser): ProfileUpdateInput {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    displayName: user.displayName ?? "",
    websiteUrl: user.websiteUrl ?? "",
    twitterUrl: user.twitterUrl ?? "",
    linkedinUrl: user.linkedinUrl ?? "",
  };
}

export function SettingsPage() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return <SettingsForm user={user} />;
}

function SettingsForm({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const [isEditing, setIsEditing] = useState(true);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const form = useForm<ProfileUpdateInput, unknown, ProfileUpdate>({
    resolver: zodResolver(profileUpdateSchema),
    defaultValues: formValues(user),
  });
  const errors = form.formState.errors;

  const save = useMutation({
    mutationFn: (values: ProfileUpdate) =>
      api.put<CurrentUser>("/api/user/profile", values, { errorPage: false }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.currentUser, updated);
      queryClient.invalidateQueries({ queryKey: queryKeys.profile(updated.username) });
      form.reset(formValues(updated));
      toastSuccess("Profile updated", "Your profile has been updated successfully");
    },
    onError: (error) => {
      if (error instanceof ApiError && error.errors) {
        for (const [field, message] of Object.entries(error.errors)) {
          form.setError(field as keyof ProfileUpdateInput, { message });
        }
      }
      toastError("Update failed", error.message);
    },
  });

  const deleteAccount = useMutation({
    mutationFn: () => api.delete("/api/user/account", { errorPage: false }),
    onSuccess: () => {
      // A full load of / clears every trace of the member from memory.
      saveFlashToast({
        title: "Account deleted",
        description: "Your account has been permanently deleted",
      });
      window.location.assign("/");
    },
    onError: (error) => toastError("Delete failed", error.message),
  });

  function handleCancel() {
    form.reset(formValues(user));
    setIsEditing(false);
  }

  const isGoogle = user.authProvider === "google";

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <title>Profile Settings | Prism</title>
      <h1 className="text-3xl font-semibold tracking-tight">Profile Settings</h1>
      <p className="mt-2 text-muted-foreground">How you appear on your page at /{user.username}.</p>

      <Card className="mt-8 flex items-center gap-4 p-5">
        <span className="inline-flex size-10 items-center justify-center rounded-xl bg-primary/10 text-primary">
          {isGoogle ? (
            <Mail className="size-5" aria-hidden="true" />
          ) : (
            <KeyRound className="size-5" aria-hidden="true" />
          )}
        </span>
        <div>
          <p className="text-sm text-muted-foreground">Account type</p>
          <p className="font-medium">{isGoogle ? "Google Account" : "Email & Password Account"}</p>
        </div>
      </Card>

      <Card className="mt-6 p-6">
        <form
          noValidate
          aria-label="Profile settings"
          className="grid gap-5"
          onSubmit={form.handleSubmit((values) => save.mutate(values))}
        >
          <fieldset disabled={!isEditing || save.isPending} className="grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                label="First name"
                autoComplete="given-name"
                error={errors.firstName?.message}
                {...form.register("firstName")}
              />
              <Field
                label="Last name"
                autoComplete="family-name"
                error={errors.lastName?.message}
                {...form.register("lastName")}
              />
            </div>
            <Field
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...form.register("email")}
            />
            <Field
              label="Display name"
              hint="Optional. Shown instead of your full name in menus and responses."
              autoComplete="nickname"
              error={errors.displayName?.message}
              {...form.register("displayName")}
            />
            <Field
              label="Website URL"
              type="url"
              placeholder="https://"
              error={errors.websiteUrl?.message}
              {...form.register("websiteUrl")}
            />
            <Field
              label="X URL"
              type="url"
              placeholder="https://x.com/"
              error={errors.twitterUrl?.message}
              {...form.register("twitterUrl")}
            />
            <Field
              label="LinkedIn URL"
              type="url"
              placeholder="https://www.linkedin.com/in/"
              error={errors.linkedinUrl?.message}
              {...form.register("linkedinUrl")}
            />
          </fieldset>
          <div className="flex justify-end gap-3">
            <Button
              variant="outline"
              onClick={handleCancel}
              disabled={!isEditing || save.isPending}
            >
              Cancel
            </Button>
            {isEditing ? (
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving..." : "Save"}
              </Button>
            ) : (
              <Button onClick={() => setIsEditing(true)}>Save</Button>
            )}
          </div>
        </form>
      </Card>

      <section
        aria-labelledby="danger-heading"
        className="mt-10 rounded-2xl border border-destructive/40 p-6"
      >
        <h2 id="danger-heading" className="text-lg font-semibold text-destructive">
          Danger Zone
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Deleting your account removes your page, your prisms, and every heart and annotation you
          have given or received. There is no way back.
        </p>
        <ConfirmDialog
          open={confirmOpen}
          onOpenChange={setConfirmOpen}
          title="Are you absolutely sure?"
          description="This action cannot be undone. This will permanently delete your account and remove your prisms, hearts and annotations from our servers."
          actionLabel="Delete Account"
          destructive
          onConfirm={() => deleteAccount.mutate()}
        >
          <Button variant="destructive" className="mt-4" disabled={deleteAccount.isPending}>
            Delete Account
          </Button>
        </ConfirmDialog>
      </section>
    </div>
  );
}
