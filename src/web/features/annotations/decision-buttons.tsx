// Approve and Reject for a pending annotation, wherever the owner meets it.
import { Check, X } from "lucide-react";
import { Button } from "../../components/ui/button.tsx";
import { type DecideAnnotation, useDecideAnnotation } from "./annotation-queries.ts";

export function DecisionButtons({
  annotationId,
  labels = { approve: "Approve", reject: "Reject" },
  onDecided,
  className = "flex gap-2",
  decide: decideAs,
}: {
  annotationId: number;
  labels?: { approve: string; reject: string };
  onDecided?: () => void;
  className?: string;
  /** How the decision is made; Prism stores it unless this says otherwise. */
  decide?: DecideAnnotation;
}) {
  const decide = useDecideAnnotation(decideAs);
  const run = (status: "approved" | "rejected") =>
    decide.mutate({ id: annotationId, status }, { onSuccess: () => onDecided?.() });
  return (
    <div className={className}>
      <Button size="sm" disabled={decide.isPending} onClick={() => run("approved")}>
        <Check aria-hidden="true" /> {labels.approve}
      </Button>
      <Button
        size="sm"
        variant="outline"
        disabled={decide.isPending}
        onClick={() => run("rejected")}
      >
        <X aria-hidden="true" /> {labels.reject}
      </Button>
    </div>
  );
}
