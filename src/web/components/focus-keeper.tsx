import { useEffect } from 'react';

const DIALOG = '[role="dialog"], [role="alertdialog"]';

const lost = () => !document.activeElement || document.activeElement === document.body;
const shown = (el: Element) => el.isConnected && !(el as HTMLElement).closest('[aria-hidden="true"], [hidden]');
const focusable = (el: Element | null | undefined): el is HTMLElement => !!el && el instanceof HTMLElement && shown(el) && !(el as HTMLButtonElement).disabled;

/** Focuses `el` when it can take the focus; true when it did. */
function tryFocus(el: Element | null | undefined): boolean {
  if (!focusable(el)) return false;
  el.focus({ preventScroll: false });
  return document.activeElement === el;
}

/** The open dialogs, the topmost (the last in the document, as portals append) last. */
const openDialogs = () => [...document.querySelectorAll(DIALOG)].filter(shown);

/**
 * Keeps the keyboard's place across drawers and dialogs, for every one of them at once (decision 066):
 * - a dialog that closes (or unmounts with its screen's state) gives the focus back to what opened it: the element
 *   focused last before it appeared (a row, a button), or the page's heading when that is gone;
 * - inside an open dialog, a focused element that disappears (Save of a new record re-renders the footer, Accept
 *   replaces its form, a button turns busy) leaves the focus in the dialog, not on <body>: on the element of the
 *   same test id or id once it is back, else on the dialog itself (Escape and Tab work from there).
 * Mantine returns the focus when a dialog's `opened` turns false; this covers what it does not.
 */
export function FocusKeeper() {
  useEffect(() => {
    // The elements focused lately, newest last: a dialog's opener is the newest one outside it.
    const recent: Element[] = [];
    const lastInside = new WeakMap<Element, { el: Element; testId: string | null; id: string }>();
    const openers = new Map<Element, Element | null>();

    const onFocusIn = (event: FocusEvent) => {
      const el = event.target instanceof Element ? event.target : null;
      if (!el) return;
      recent.push(el);
      if (recent.length > 8) recent.shift();
      const dialog = el.closest(DIALOG);
      if (dialog) lastInside.set(dialog, { el, testId: el.getAttribute('data-testid'), id: el.id });
    };

    const sweep = () => {
      const open = openDialogs();
      for (const dialog of open) {
        if (openers.has(dialog)) continue;
        const opener = [...recent].reverse().find((el) => el.isConnected && !dialog.contains(el)) ?? null;
        openers.set(dialog, opener);
      }
      if (!lost()) {
        for (const dialog of [...openers.keys()]) if (!dialog.isConnected) openers.delete(dialog);
        return;
      }
      // Outside dialogs, only a focus taken away is put back (the last focused element left or turned busy, or a
      // dialog closed): a click on nothing focusable, with the element still there, is the reader's own choice.
      const last = recent.at(-1);
      const gone = !last || !last.isConnected || !shown(last) || !!(last as HTMLButtonElement).disabled;
      const top = open.at(-1);
      // In an open dialog <body> is never chosen (a click on its empty space focuses the dialog): always a loss.
      if (!top && !gone && ![...openers.keys()].some((d) => !d.isConnected)) return;
      if (top) {
        // Still in a dialog: its last focused element, or its twin after a re-render, or the dialog itself.
        const last = lastInside.get(top);
        const twin = last?.testId
          ? top.querySelector(`[data-testid="${CSS.escape(last.testId)}"]`)
          : last?.id
            ? top.querySelector(`#${CSS.escape(last.id)}`)
            : null;
        if (tryFocus(last?.el) || tryFocus(twin)) return;
        // A busy button comes back: wait for it rather than move on (the next change sweeps again).
        if (last?.el.isConnected && (last.el as HTMLButtonElement).disabled) return;
        tryFocus(top);
        return;
      }
      // A dialog closed and took the focus with it: back to what opened it, or the page's heading.
      for (const [dialog, opener] of [...openers].reverse()) {
        if (dialog.isConnected) continue;
        openers.delete(dialog);
        if (tryFocus(opener)) return;
        const heading = document.querySelector<HTMLElement>('main h1, main h2');
        if (heading) {
          if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
          tryFocus(heading);
          return;
        }
      }
    };

    // Mantine focuses a dialog in an effect after it mounts; one sweep after the mutations settle.
    let queued = false;
    const queue = () => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        sweep();
      });
    };
    const observer = new MutationObserver(queue);
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled', 'data-loading', 'hidden', 'aria-hidden'],
    });
    document.addEventListener('focusin', onFocusIn, true);
    // A blur to nowhere without a change of the DOM (a click on a dialog's empty space): checked once it settles.
    const onFocusOut = (event: FocusEvent) => {
      if (!event.relatedTarget) setTimeout(queue, 0);
    };
    document.addEventListener('focusout', onFocusOut, true);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn, true);
      document.removeEventListener('focusout', onFocusOut, true);
    };
  }, []);
  return null;
}
