import { vi } from 'vitest';

/** A `window.matchMedia` for jsdom (which lacks what Mantine measures with): `matches(query)` says which queries hold. */
export const fakeMatchMedia = (matches: (query: string) => boolean) =>
  vi.fn().mockImplementation((query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  }));
