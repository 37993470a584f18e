import type { SignMeaning } from '../../features/procedures/procedures.schema';

/**
 * The hand-over of a signature through the identity provider (decision 078 addendum): the sign-off step notes what is
 * being signed and where to come back before the browser leaves for the provider; the /sso/callback page, finding the
 * note, exchanges the provider's answer for a proof and comes back; the step then signs with the proof. Kept in this
 * tab's sessionStorage only (the proof is short-lived and good once).
 */
export interface PendingSignature {
  workOrderId: number;
  stepId: number;
  meaning: SignMeaning;
  /** The page to come back to (path, query and hash). */
  returnTo: string;
}

const PENDING = 'cmms.signOff.pending';
const PROOF = 'cmms.signOff.proof';

function read<T>(key: string): T | null {
  try {
    const text = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export const notePendingSignature = (p: PendingSignature) => sessionStorage.setItem(PENDING, JSON.stringify(p));
/** The signature waiting for the provider's answer, taken (the next callback is no longer one). */
export const takePendingSignature = () => read<PendingSignature>(PENDING);
export const keepSignatureProof = (p: PendingSignature & { proof: string }) => sessionStorage.setItem(PROOF, JSON.stringify(p));

/** The proof brought back for this step, taken; another step's stays. */
export function takeSignatureProof(workOrderId: number, stepId: number): (PendingSignature & { proof: string }) | null {
  const found = read<PendingSignature & { proof: string }>(PROOF);
  if (found && (found.workOrderId !== workOrderId || found.stepId !== stepId)) {
    keepSignatureProof(found);
    return null;
  }
  return found;
}
