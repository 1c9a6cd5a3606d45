// /profile: Profile Settings and the Danger Zone.
import { zodResolver } from "@hookform/resolvers/zod";
import { Download, KeyRound, Mail } from "lucide-react";
import { Fragment, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "wouter";
import { authMessages } from "../../../contract/auth.ts";
import {
  type CurrentUser,
  type EmailNotifications,
  type ProfileUpdate,
  type ProfileUpdateInput,
  profileUpdateSchema,
} from "../../../contract/user.ts";
import { Button } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { bindFields, Form, FormError, SubmitButton } from "../../components/ui/form.tsx";
import { Label } from "../../components/ui/label.tsx";
import { useCurrentUser, useSiteServices } from "../auth/auth-queries.ts";
import { PasswordForm } from "./password-form.tsx";
import { ProfilePhoto } from "./profile-photo.tsx";
import { ConfirmWithGoogle, CurrentPasswordField, ReauthDialog } from "./reauth.tsx";
import { ResponseRules } from "./response-rules.tsx";
import { SettingChoice } from "./setting-choice.tsx";
import {
  useConnectGoogle,
  useDeleteAccount,
  useDisconnectGoogle,
  useSaveProfile,
} from "./settings-queries.ts";
import { WebsiteCheck } from "./website-check.tsx";

/** What Profile Settings says when a Google connection or confirmation comes back (`?google=…`). */
const googleResults: Record<string, string> = {
  connected: "Google is connected: you can sign in with it from now on.",
  confirmed:
    "Confirmed with Google: for the next 10 minutes you can change your e-mail or password, or delete your account.",
  "google-wrong-account": "That is not the Google account connected to your Prism account.",
  "google-already-linked": "That Google account is already connected to another Prism account.",
  "google-not-configured": authMessages.googleNotConfigured,
};
const googleFailed = "We couldn't connect Google. Please try again.";

/** The choices for e-mail notifications, in the order the form shows them. */
const emailChoices = [
  { value: "immediately", label: "Immediately" },
  { value: "daily", label: "Daily digest" },
  { value: "never", label: "Never" },
] as const satisfies readonly { value: EmailNotifications; label: string }[];

/** The links a member may add, each a URL. */
const linkFields = [
  { name: "websiteUrl", label: "Website URL", placeholder: "https://" },
  { name: "twitterUrl", label: "X URL", placeholder: "https://x.com/" },
  { name: "linkedinUrl", label: "LinkedIn URL", placeholder: "https://www.linkedin.com/in/" },
] as const;

/** The on/off settings of responses, teams and the fediverse, in the order the form shows them. */
const onOffSettings = [
  {
    name: "preapproveMembers",
    id: "preapprove-members",
    label: "Pre-approve members",
    hint: "Responses from signed-in members to your prisms are approved at once; anonymous ones still wait for you. You are notified either way.",
  },
  {
    name: "preapproveTeammates",
    id: "preapprove-teammates",
    label: "Pre-approve my teammates' responses",
    hint: "Responses from people who share a team with you are approved at once. You are notified either way.",
  },
  {
    name: "notifyTeamPrisms",
    id: "notify-team-prisms",
    label: "Tell me when a teammate writes or edits a prism",
    hint: "One notification per prism until you read it, however often it is edited.",
  },
  {
    name: "federated",
    id: "federated",
    label: "Follow from the fediverse",
    hint: "People on Mastodon and other fediverse servers can follow you and see your prisms there. Turning it off removes you from their servers.",
  },
  {
    name: "approveFollowers",
    id: "approve-followers",
    label: "Approve followers myself",
    hint: "New followers from the fediverse wait until you accept them, and see nothing of yours until then. Off, they are accepted at once.",
  },
] as const;

function formValues(user: CurrentUser): ProfileUpdateInput {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    displayName: user.displayName ?? "",
    websiteUrl: user.websiteUrl ?? "",
    twitterUrl: user.twitterUrl ?? "",
    linkedinUrl: user.linkedinUrl ?? "",
    preapproveMembers: user.preapproveMembers,
    preapproveTeammates: user.preapproveTeammates,
    notifyTeamPrisms: user.notifyTeamPrisms,
    listed: user.listed,
    emailNotifications: user.emailNotifications,
    anonymousResponses: user.anonymousResponses,
    anonymousLinks: user.anonymousLinks,
    watchedWords: user.watchedWords,
    federated: user.federated,
    approveFollowers: user.approveFollowers,
    currentPassword: "",
  };
}

export function SettingsPage() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return <SettingsForm user={user} />;
}

function SettingsForm({ user }: { user: CurrentUser }) {
  const [isEditing, setIsEditing] = useState(true);
  const form = useForm<ProfileUpdateInput, unknown, ProfileUpdate>({
    resolver: zodResolver(profileUpdateSchema),
    defaultValues: formValues(user),
  });
  const field = bindFields(form);
  const save = useSaveProfile((updated) => form.reset(formValues(updated)));
  const deleteAccount = useDeleteAccount();

  function handleCancel() {
    form.reset(formValues(user));
    setIsEditing(false);
  }

  const isGoogle = user.authProvider === "google";
  // A new e-mail address is a sensitive change: the form asks again who the member is.
  const emailChanged = form.watch("email").trim() !== user.email;
  const connectGoogle = useConnectGoogle();
  const disconnectGoogle = useDisconnectGoogle();
  const [params] = useSearchParams();
  const googleResult = params.get("google");
  const services = useSiteServices();
  const outgoingMail = services?.outgoingMail;
  // Connect Google only where the server has Google sign-in, as on the sign-in page; disconnect it
  // only where a password remains to sign in with.
  const googleAction =
    !user.googleConnected && services?.googleSignIn
      ? {
          title: "Connect Google",
          description: "Then Google asks which of your Google accounts signs in to Prism.",
          actionLabel: "Continue to Google",
          mutation: connectGoogle,
        }
      : user.googleConnected && user.hasPassword
        ? {
            title: "Disconnect Google",
            description: "You will sign in with your username and password from then on.",
            actionLabel: "Disconnect Google",
            mutation: disconnectGoogle,
          }
        : null;

  return (
    <div className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Profile Settings</h1>
      <p className="mt-2 text-muted-foreground">How you appear on your page at /{user.username}.</p>

      <Card className="mt-8 flex flex-wrap items-center gap-4 p-5">
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
          {user.googleConnected ? (
            <p className="mt-1 text-sm text-muted-foreground">Google is connected.</p>
          ) : null}
          {googleResult ? (
            <p className="mt-1 text-sm" role="status">
              {googleResults[googleResult] ?? googleFailed}
            </p>
          ) : null}
        </div>
        <div className="ml-auto">
          {googleAction ? (
            <ReauthDialog user={user} {...googleAction}>
              <Button variant="outline">{googleAction.title}</Button>
            </ReauthDialog>
          ) : null}
        </div>
      </Card>

      <Card className="mt-6 p-6">
        <ProfilePhoto user={user} />
      </Card>

      <Card className="mt-6 p-6">
        <Form form={form} mutation={save} aria-label="Profile settings" className="gap-5">
          <fieldset disabled={!isEditing || save.isPending} className="grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="First name" autoComplete="given-name" {...field("firstName")} />
              <Field label="Last name" autoComplete="family-name" {...field("lastName")} />
            </div>
            <Field label="Email" type="email" autoComplete="email" {...field("email")} />
            {emailChanged ? (
              user.hasPassword ? (
                <CurrentPasswordField
                  hint="A new e-mail address needs your current password."
                  {...field("currentPassword")}
                />
              ) : (
                <ConfirmWithGoogle />
              )
            ) : null}
            <Field
              label="Display name"
              hint="Optional. Shown instead of your full name in menus and responses."
              autoComplete="nickname"
              {...field("displayName")}
            />
            {linkFields.map(({ name, label, placeholder }) => (
              <Fragment key={name}>
                <Field label={label} type="url" placeholder={placeholder} {...field(name)} />
                {name === "websiteUrl" ? <WebsiteCheck user={user} /> : null}
              </Fragment>
            ))}
            {onOffSettings.map(({ name, id, label, hint }) => (
              <SettingChoice
                key={name}
                type="checkbox"
                id={id}
                label={label}
                hint={hint}
                {...form.register(name)}
              />
            ))}
            <p className="text-sm">
              <Link to="/profile/followers" className="text-primary underline underline-offset-4">
                Your followers on the fediverse
              </Link>
            </p>
            <SettingChoice
              type="checkbox"
              id="listed"
              label="List my page"
              hint="Search engines may index your page and Explore shows it. Unlisted, it is still there for anyone with its link."
              {...form.register("listed")}
            />
            <fieldset className="grid gap-2" aria-describedby="email-notifications-hint">
              <legend className="text-sm font-medium">
                Email me about new responses to review and replies to mine
              </legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                {emailChoices.map(({ value, label }) => (
                  <div key={value} className="flex items-center gap-2">
                    <input
                      id={`email-notifications-${value}`}
                      type="radio"
                      value={value}
                      className="size-4 accent-primary"
                      {...form.register("emailNotifications")}
                    />
                    <Label htmlFor={`email-notifications-${value}`}>{label}</Label>
                  </div>
                ))}
              </div>
              <p id="email-notifications-hint" className="text-xs text-muted-foreground">
                {outgoingMail === false
                  ? "This server cannot send e-mail at the moment: your choice applies once it can."
                  : "The daily digest collects a day's news in one message. Every message has a link to unsubscribe."}
              </p>
            </fieldset>
            <ResponseRules form={form} />
          </fieldset>
          <FormError />
          <div className="flex justify-end gap-3">
            <Button
              variant="outline"
              onClick={handleCancel}
              disabled={!isEditing || save.isPending}
            >
              Cancel
            </Button>
            {isEditing ? (
              <SubmitButton pending={save.isPending} pendingLabel="Saving...">
                Save
              </SubmitButton>
            ) : (
              <Button onClick={() => setIsEditing(true)}>Save</Button>
            )}
          </div>
        </Form>
      </Card>

      <PasswordForm user={user} />

      <section
        aria-labelledby="teams-heading"
        className="mt-10 rounded-2xl border border-border p-6"
      >
        <h2 id="teams-heading" className="text-lg font-semibold">
          Teams
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Teammates on Prism read each other's pages in one place.
        </p>
        <Button asChild variant="outline" className="mt-4">
          <Link to="/teams">Your teams</Link>
        </Button>
      </section>

      <section
        aria-labelledby="data-heading"
        className="mt-10 rounded-2xl border border-border p-6"
      >
        <h2 id="data-heading" className="text-lg font-semibold">
          Your data
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          One JSON file with your account, your prisms, the responses on them and the ones you
          wrote, and your notifications. Responses are also in the W3C Web Annotation format, so
          other annotation tools can read them.
        </p>
        <Button asChild variant="outline" className="mt-4">
          <a href="/api/user/export" download={`prism-${user.username}.json`}>
            <Download aria-hidden="true" /> Download my data
          </a>
        </Button>
      </section>

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
        <ReauthDialog
          user={user}
          title="Are you absolutely sure?"
          description="This action cannot be undone. This will permanently delete your account and remove your prisms, hearts and annotations from our servers."
          actionLabel="Delete Account"
          destructive
          mutation={deleteAccount}
        >
          <Button variant="destructive" className="mt-4">
            Delete Account
          </Button>
        </ReauthDialog>
      </section>
    </div>
  );
}
