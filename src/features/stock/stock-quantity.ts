/** Quantities keep three decimals (numeric(14, 3)): every sum and difference of stock is rounded to them. */
export const round3 = (n: number) => Math.round(n * 1000) / 1000;
