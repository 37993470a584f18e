/** Where the contractor's page sends its calls (public, by token). */
export const SHARED = '/shared-work-orders';
