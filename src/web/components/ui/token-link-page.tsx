// A page an e-mail's link leads to with a token (`?token=…`): heading and lead over a card that
// holds what the page does with the token, or, when the link carries none, why nothing can be done.
import type { ReactNode } from "react";
import { useSearchParams } from "wouter";
import { FormPage } from "./form-page.tsx";

export function TokenLinkPage({
  heading,
  lead,
  noToken,
  children,
}: {
  heading: string;
  lead: string;
  /** What the card says when the link carries no token. */
  noToken: ReactNode;
  /** What the page does with the link's token. */
  children: (token: string) => ReactNode;
}) {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  return (
    <FormPage heading={heading} lead={lead}>
      {token ? children(token) : noToken}
    </FormPage>
  );
}
