// The keyboard's focus when a page replaces the one that had it.

/**
 * Once the next page shows its main heading (another than the one `#main` shows now), the
 * keyboard's focus goes to it, unless something has taken the focus by then: the control that
 * had it went with the page it was on, and the next Tab starts from the new page's top.
 */
export function focusNextHeading() {
  const main = document.getElementById("main");
  if (!main) return;
  const previous = main.querySelector("h1");
  const place = () => {
    const heading = main.querySelector("h1");
    if (!heading || heading === previous) return false;
    if (document.activeElement === null || document.activeElement === document.body) {
      heading.tabIndex = -1;
      heading.focus();
    }
    return true;
  };
  if (place()) return;
  const observer = new MutationObserver(() => {
    if (place()) observer.disconnect();
  });
  observer.observe(main, { childList: true, subtree: true });
}
