/** The page sizes lists offer; without zod, so list pages can import it without the validation library. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
