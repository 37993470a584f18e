import { cloneElement, isValidElement, useSyncExternalStore, type ReactElement, type ReactNode, type Ref } from 'react';
import type { TooltipProps } from '@mantine/core';

/**
 * The controls that only do something once the user acts (tooltips, menus, the page-size select, the status
 * filter's dropdown) come with floating-ui and Mantine's Popover, Menu and Combobox: ~25 KB of gzipped
 * JavaScript the first paint does not need (issue 9). Until the user first moves the pointer, touches or presses
 * a key, each of them renders its visible part only (the same button or input); that first interaction loads
 * them all at once and they take over. A control clicked before they arrive is clicked again once they do, and
 * the keyboard focus stays on the control it was on. They never take over in the middle of a press (between the
 * pointer going down and the click): the click would land on a stand-in already gone and be lost, so the switch
 * waits for the click, which the stand-in then passes on. A click that still reaches a stand-in after the switch
 * removed it (a reference kept from before, as a test's or a script's; the hover that began the loading came
 * first) is passed on too: React no longer hears a removed element, so each stand-in also listens itself.
 */
export type InteractiveControls = typeof import('./interactive-controls');

let controls: InteractiveControls | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();
/** Controls clicked before the interactive controls arrived: [selector, index among its matches]. */
let openRequests: [string, number][] = [];
const EVENTS = ['pointermove', 'pointerdown', 'keydown', 'touchstart', 'focusin', 'wheel'] as const;

/** What finds an element again once its control has been replaced: its test id or its label, and its rank. */
function locate(el: Element | null): [string, number] | null {
  if (!el || el === document.body) return null;
  const id = el.getAttribute('data-testid');
  const label = el.getAttribute('aria-label');
  const selector = id ? `[data-testid="${CSS.escape(id)}"]` : label ? `[aria-label="${CSS.escape(label)}"]` : null;
  return selector ? [selector, [...document.querySelectorAll(selector)].indexOf(el)] : null;
}
const find = ([selector, index]: [string, number]) => document.querySelectorAll<HTMLElement>(selector)[Math.max(0, index)];

function clickRequested() {
  const clicked = openRequests;
  openRequests = [];
  for (const request of clicked) {
    const el = find(request);
    el?.focus();
    el?.click();
  }
}

/** A pointer is down and its click has not come yet (the switch to the interactive controls waits for it). */
let pressing = false;
const onPress = () => {
  pressing = true;
};
/** After the click's own handlers (the stand-in's included) have run. */
const onRelease = () =>
  setTimeout(() => {
    pressing = false;
    releaseWaiters.splice(0).forEach((w) => w());
  }, 0);
const releaseWaiters: (() => void)[] = [];
const PRESS_EVENTS = ['pointerdown', 'mousedown'] as const;
const RELEASE_EVENTS = ['click', 'pointercancel', 'dragstart'] as const;

/** Resolves when no press is under way (at once, or after the click; at most `ms` later if the click never comes). */
function pressEnded(ms = 1000): Promise<void> {
  if (!pressing) return Promise.resolve();
  return new Promise((resolve) => {
    releaseWaiters.push(resolve);
    setTimeout(resolve, ms);
  });
}

/** The stand-ins on screen, and where the control of each removed one is (its selector and rank, taken before the switch). */
const standIns = new Set<Element>();
const placeOf = new WeakMap<Element, [string, number]>();
const LOCATABLE = '[data-testid],[aria-label]';

/** A click on a stand-in the switch has removed: its control, now on screen in its place, is clicked. */
function clickOnRemoved(event: Event) {
  const standIn = event.currentTarget as Element;
  const where = placeOf.get(standIn);
  if (standIn.isConnected || !where) return; // on screen, React's onClick has it
  openRequests.push(where);
  setTimeout(clickRequested, 0);
}

/** The ref every stand-in gets (through `Deferred`). */
function standInRef(el: Element | null) {
  if (!el) return;
  standIns.add(el);
  el.addEventListener('click', clickOnRemoved);
  return () => {
    standIns.delete(el);
  };
}

function switchTo(m: InteractiveControls) {
  stopListening();
  for (const el of standIns) {
    const where = locate(el.matches(LOCATABLE) ? el : el.querySelector(LOCATABLE));
    if (where) placeOf.set(el, where);
  }
  const focused = document.activeElement;
  const where = locate(focused);
  controls = m;
  listeners.forEach((l) => l());
  // after React has committed the switch: the focus goes to the focused control's successor, and a control
  // clicked meanwhile is clicked again (it opens as on a click: focus returns to it when it closes)
  setTimeout(() => {
    if (where && focused && !focused.isConnected && document.activeElement === document.body) find(where)?.focus();
    clickRequested();
  }, 0);
}

/** Loads the interactive controls (once); the rendered controls switch to them, outside of a press. */
export function loadInteractiveControls(): Promise<void> {
  loading ??= import('./interactive-controls').then(
    async (m) => {
      await pressEnded();
      switchTo(m);
    },
    () => {
      loading = null; // retried on the next interaction
    },
  );
  return loading;
}

const onFirstInteraction = () => void loadInteractiveControls();
let listening = false;
function startListening() {
  if (listening || controls || typeof document === 'undefined') return;
  listening = true;
  for (const e of EVENTS) document.addEventListener(e, onFirstInteraction, { capture: true, passive: true });
  for (const e of PRESS_EVENTS) document.addEventListener(e, onPress, { capture: true, passive: true });
  for (const e of RELEASE_EVENTS) document.addEventListener(e, onRelease, { capture: true, passive: true });
}
function stopListening() {
  listening = false;
  for (const e of EVENTS) document.removeEventListener(e, onFirstInteraction, { capture: true });
  for (const e of PRESS_EVENTS) document.removeEventListener(e, onPress, { capture: true });
  for (const e of RELEASE_EVENTS) document.removeEventListener(e, onRelease, { capture: true });
  pressing = false;
}

function subscribe(listener: () => void) {
  startListening();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The interactive controls once loaded, else null (and the first interaction loads them). */
export function useInteractiveControls(): InteractiveControls | null {
  return useSyncExternalStore(
    subscribe,
    () => controls,
    () => null,
  );
}

/** The click handler of a placeholder: the control it stands for is clicked once the interactive controls are there. */
export function openWhenReady(event: { currentTarget: Element }) {
  const where = locate(event.currentTarget);
  if (where) openRequests.push(where);
  // loaded but not yet rendered: the click is repeated once they are
  if (controls) setTimeout(clickRequested, 0);
  else void loadInteractiveControls();
}

/** `placeholder` (the control's visible part; its click calls `openWhenReady`) until the interactive controls are loaded, then `children(controls)`. */
export function Deferred({ placeholder, children }: { placeholder: ReactNode; children(c: InteractiveControls): ReactNode }) {
  const c = useInteractiveControls();
  if (c) return children(c);
  // the stand-in hears its own clicks too (clickOnRemoved); placeholders carry no ref of their own
  return isValidElement<{ ref?: Ref<Element> }>(placeholder) && !placeholder.props.ref ? cloneElement(placeholder, { ref: standInRef }) : placeholder;
}

/** Mantine's Tooltip once the interactive controls are loaded; before that, the element alone. */
export function DeferredTooltip({ children, ...props }: Omit<TooltipProps, 'children'> & { children: ReactElement }) {
  const c = useInteractiveControls();
  return c ? <c.Tooltip {...props}>{children}</c.Tooltip> : children;
}
