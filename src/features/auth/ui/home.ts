/** Where a signed-in user lands (spec section 4). */
export const HOME = '/dashboard/work-orders';
