// A dialog whose code loads when it first opens: a page carries no dialog code until someone
// opens one. Once loaded it stays mounted, so it closes (and returns focus) as usual.
import { type ComponentType, lazy, Suspense, useState } from "react";

export function onFirstOpen<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
) {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
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
