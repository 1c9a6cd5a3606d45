// The owner's controls under a prism in edit mode: move it, edit it, open its history, delete it
// (once confirmed) and choose who may respond.
import { ArrowDown, ArrowUp, History, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import type { Responders } from "../../../contract/responders.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cn } from "../../lib/cn.ts";
import { RespondersSelect } from "./responders-select.tsx";

export function PrismOwnerControls({
  active,
  isFirst,
  isLast,
  busy,
  responders,
  onMove,
  onEdit,
  onOpenHistory,
  onDelete,
  onChooseResponders,
}: {
  /** The prism is open: the controls line up with its content. */
  active: boolean;
  isFirst: boolean;
  isLast: boolean;
  busy: boolean;
  responders: Responders;
  onMove: (direction: Direction) => void;
  onEdit: () => void;
  onOpenHistory: () => void;
  onDelete: () => void;
  onChooseResponders: (responders: Responders) => void;
}) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  return (
    <div className={cn("flex flex-wrap gap-1 pb-4", active ? "sm:pl-10" : "")}>
      {!isFirst ? <MoveButton direction="up" disabled={busy} onMove={onMove} /> : null}
      {!isLast ? <MoveButton direction="down" disabled={busy} onMove={onMove} /> : null}
      <Button variant="ghost" size="sm" disabled={busy} onClick={onEdit}>
        <Pencil aria-hidden="true" /> Edit
      </Button>
      <Button variant="ghost" size="sm" onClick={onOpenHistory}>
        <History aria-hidden="true" /> History
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={busy}
        onClick={() => setConfirmDelete(true)}
        className="text-destructive hover:text-destructive"
      >
        <Trash2 aria-hidden="true" /> Delete
      </Button>
      <RespondersSelect value={responders} disabled={busy} onChange={onChooseResponders} />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Are you sure you want to delete this prism?"
        description="This action cannot be undone. This will permanently delete your prism."
        actionLabel="Delete"
        destructive
        onConfirm={onDelete}
      />
    </div>
  );
}

/** The two ways a prism moves in its owner's list, and each one's button. */
const moves = {
  up: { Icon: ArrowUp, label: "Move Up" },
  down: { Icon: ArrowDown, label: "Move Down" },
};
type Direction = keyof typeof moves;

function MoveButton({
  direction,
  disabled,
  onMove,
}: {
  direction: Direction;
  disabled: boolean;
  onMove: (direction: Direction) => void;
}) {
  const { Icon, label } = moves[direction];
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={disabled}
      data-move={direction}
      onClick={() => onMove(direction)}
    >
      <Icon aria-hidden="true" /> {label}
    </Button>
  );
}
