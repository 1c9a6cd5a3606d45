// The owner's controls under a prism in edit mode: move it, edit it, open its history, delete it
// (once confirmed) and choose who may respond. On a wide screen each is a button in a row; on a
// phone's width Edit stays in view and the rest are in one menu, so that a prism shows two
// controls instead of six.
import { ArrowDown, ArrowUp, History, MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import type { Responders } from "../../../contract/responders.ts";
import { ConfirmDialog } from "../../components/ui/alert-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu.tsx";
import { cn } from "../../lib/cn.ts";
import { RespondersSelect, responderChoices } from "./responders-select.tsx";

interface Props {
  /** The prism's title, which names its menu. */
  title: string;
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
}

export function PrismOwnerControls(props: Props) {
  const { active, isFirst, isLast, busy, responders, onMove, onEdit } = props;
  const [confirmDelete, setConfirmDelete] = useState(false);
  return (
    <div className={cn("flex flex-wrap gap-1 pb-4", active ? "sm:pl-10" : "")}>
      <div className="hidden sm:contents">
        {!isFirst ? <MoveButton direction="up" disabled={busy} onMove={onMove} /> : null}
        {!isLast ? <MoveButton direction="down" disabled={busy} onMove={onMove} /> : null}
        <EditButton busy={busy} onEdit={onEdit} />
        <Button variant="ghost" size="sm" onClick={props.onOpenHistory}>
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
        <RespondersSelect value={responders} disabled={busy} onChange={props.onChooseResponders} />
      </div>
      <div className="contents sm:hidden">
        <EditButton busy={busy} onEdit={onEdit} />
        <OwnerMenu {...props} onDelete={() => setConfirmDelete(true)} />
      </div>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Are you sure you want to delete this prism?"
        description="This action cannot be undone. This will permanently delete your prism."
        actionLabel="Delete"
        destructive
        onConfirm={props.onDelete}
      />
    </div>
  );
}

function EditButton({ busy, onEdit }: { busy: boolean; onEdit: () => void }) {
  return (
    <Button variant="ghost" size="sm" disabled={busy} onClick={onEdit}>
      <Pencil aria-hidden="true" /> Edit
    </Button>
  );
}

/**
 * The phone's menu of the rest. An action runs once the menu has closed and given the focus back
 * to its button, so that a dialog it opens (History, the delete confirmation) returns it there.
 */
function OwnerMenu({
  title,
  isFirst,
  isLast,
  busy,
  responders,
  onMove,
  onOpenHistory,
  onDelete,
  onChooseResponders,
}: Props) {
  const chosen = useRef<(() => void) | null>(null);
  const choose = (action: () => void) => () => {
    chosen.current = action;
  };
  const respondersLabel = useId();
  // The menu is drawn beside its button, in the page's main landmark, and leaves the rest of the
  // page as it is (a modal menu would hide it from screen readers, skip link and all).
  const [beside, setBeside] = useState<HTMLSpanElement | null>(null);
  return (
    <span ref={setBeside} className="contents">
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="sm"
            data-move="menu"
            aria-label={`More actions for "${title}"`}
          >
            <MoreHorizontal aria-hidden="true" /> More
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent
          container={beside}
          align="start"
          className="min-w-52"
          onCloseAutoFocus={() => {
            chosen.current?.();
            chosen.current = null;
          }}
        >
          {(["up", "down"] as const)
            .filter((direction) => (direction === "up" ? !isFirst : !isLast))
            .map((direction) => {
              const { Icon, label } = moves[direction];
              return (
                <DropdownMenuItem
                  key={direction}
                  disabled={busy}
                  onSelect={choose(() => onMove(direction))}
                >
                  <Icon aria-hidden="true" /> {label}
                </DropdownMenuItem>
              );
            })}
          <DropdownMenuItem onSelect={choose(onOpenHistory)}>
            <History aria-hidden="true" /> History
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel id={respondersLabel} className="text-muted-foreground">
            Who may respond
          </DropdownMenuLabel>
          <DropdownMenuRadioGroup
            aria-labelledby={respondersLabel}
            value={responders}
            onValueChange={(value) => onChooseResponders(value as Responders)}
          >
            {responderChoices.map((choice) => (
              <DropdownMenuRadioItem key={choice.value} value={choice.value} disabled={busy}>
                {choice.label}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            disabled={busy}
            onSelect={choose(onDelete)}
            className="text-destructive data-[highlighted]:text-destructive"
          >
            <Trash2 aria-hidden="true" /> Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </span>
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
