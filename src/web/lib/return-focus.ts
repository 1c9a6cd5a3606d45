// A dialog gives the focus back to what opened it.
import { useRef } from "react";

type AutoFocusHandler = (event: Event) => void;

/**
 * A dialog's focus handlers: as it closes, the focus goes back to what had it when it opened (the
 * control that opened it, Radix's `Trigger` or not, or a menu's button), unless the caller's own
 * `onCloseAutoFocus` places it.
 */
export function useReturnFocus(
  own: { onOpenAutoFocus?: AutoFocusHandler; onCloseAutoFocus?: AutoFocusHandler } = {},
) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      opener.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      own.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      own.onCloseAutoFocus?.(event);
      if (event.defaultPrevented || !opener.current?.isConnected) return;
      event.preventDefault();
      opener.current.focus();
    },
  };
}
