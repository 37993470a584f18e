// The sign-in form's static HTML (decision 050) can be submitted before its scripts have taken it over, on a slow
// network or a busy machine. Submitted natively it would reload the page, the password in the address. The head
// script (color-scheme.ts) holds such a submit back; the lean boot sends it once React has the form.

const PENDING = '__cmmsPendingSubmit';
type Held = { [PENDING]?: boolean };

/** Called by the head script: a submit of a form still static (inside #root[data-prerendered]) waits. */
export function holdEarlySubmits(doc: Document) {
  doc.addEventListener(
    'submit',
    (event) => {
      if (!(event.target as Element | null)?.closest?.('#root[data-prerendered]')) return;
      event.preventDefault();
      (window as Held)[PENDING] = true;
    },
    true,
  );
}

/** True once, when a submit was held back before the takeover. */
export function takeHeldSubmit(): boolean {
  const held = (window as Held)[PENDING] === true;
  delete (window as Held)[PENDING];
  return held;
}
