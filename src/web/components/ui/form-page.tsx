// A page that is one form in a card: heading and lead above it, centred in a narrow column.
import type { ReactNode } from "react";
import { Card } from "./card.tsx";

export function FormPage({
  heading,
  lead,
  children,
  footer,
}: {
  heading: string;
  lead: string;
  children: ReactNode;
  /** A line under the card. */
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto flex w-full max-w-md flex-col px-4 py-12 sm:py-16">
      <h1 className="text-center text-3xl font-semibold tracking-tight">{heading}</h1>
      <p className="mt-2 text-center text-muted-foreground">{lead}</p>
      <Card className="mt-8 p-6">{children}</Card>
      {footer}
    </div>
  );
}
