// A dialog mounted when it first opens: with its code loaded on demand, a page carries no dialog
// code until someone opens one. Once mounted it stays, so it closes (and returns focus) as usual.
import { type ComponentType, Suspense, useState } from "react";

export function onFirstOpen<P extends object>(
  Dialog: ComponentType<P>,
  isOpen: (props: P) => boolean,
) {
  return function DialogOnFirstOpen(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    if (open && !opened) setOpened(true);
    if (!opened && !open) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
