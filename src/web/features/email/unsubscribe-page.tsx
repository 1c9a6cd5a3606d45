// /unsubscribe?token=…: where the link in an e-mail notification leads. Opening it changes
// nothing (mail scanners open links); the button turns e-mail notifications off, signed in or not.
import { MailX } from "lucide-react";
import { emailMessages } from "../../../contract/email.ts";
import { Button } from "../../components/ui/button.tsx";
import { SuccessPanel } from "../../components/ui/success-panel.tsx";
import { TokenLinkPage } from "../../components/ui/token-link-page.tsx";
import { useUnsubscribe } from "./email-queries.ts";

export function UnsubscribePage() {
  return (
    <TokenLinkPage
      heading="Unsubscribe"
      lead="Stop e-mails about new responses to review and replies to yours. Your notifications stay in Prism."
      noToken={
        <p className="text-center" role="alert">
          {emailMessages.unknownToken}
        </p>
      }
    >
      {(token) => <Unsubscribe token={token} />}
    </TokenLinkPage>
  );
}

function Unsubscribe({ token }: { token: string }) {
  const unsubscribe = useUnsubscribe(token);
  if (unsubscribe.isSuccess) {
    return (
      <SuccessPanel
        icon={MailX}
        message={unsubscribe.data.message}
        note="You can turn them back on in Profile Settings."
        action={{ label: "Profile Settings", to: "/profile" }}
      />
    );
  }
  return (
    <div className="grid gap-3">
      {unsubscribe.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {unsubscribe.error.message}
        </p>
      ) : null}
      <Button
        onClick={() => unsubscribe.mutate()}
        disabled={unsubscribe.isPending}
        className="w-full"
      >
        {unsubscribe.isPending ? "Unsubscribing..." : "Unsubscribe"}
      </Button>
    </div>
  );
}
