// A dialog gives the focus back to what opened it.
import { useRef } from "react";

type AutoFocusHandler = (event: Event) => void;

/**
 * A dialog's focus handlers: as it closes, the focus goes back to what had it when it opened (the
 * control that opened it, Radix's `Trigger` or not, or a menu's button), unless the caller's own
 * `onCloseAutoFocus` places it; when that is gone, it stays where the page has put it.
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
      if (event.defaultPrevented) return;
      // What opened it may be gone (a decision replaced the row it was on): then the focus stays
      // where the page has put it since, rather than going to the page's body.
      event.preventDefault();
      if (opener.current?.isConnected) opener.current.focus();
    },
  };
}
