import { landingFor } from '../../../web/app/signed-in-path';
import { tokenClaims } from '../../../web/lib/session';

/** Where a signed-in user lands (spec section 4). */
export const HOME = '/dashboard/work-orders';

/** HOME, except a worker on a phone, who lands on My work (issue 27). */
export const homeFor = () => landingFor(tokenClaims()?.role, HOME);
