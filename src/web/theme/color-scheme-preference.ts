import { readLocal } from '../lib/local-store';

export type ThemePreference = 'light' | 'dark' | 'auto';
export const THEME_KEY = 'theme';

/** Public marketing pages default to dark; the signed-in area (and auth screens) default to the system's choice. */
export const DARK_DEFAULT_PATHS = ['/', '/features', '/pricing', '/contact', '/demo-request'];

export function areaDefault(pathname: string): ThemePreference {
  return DARK_DEFAULT_PATHS.includes(pathname.replace(/\/+$/, '') || '/') ? 'dark' : 'auto';
}

export function storedPreference(): ThemePreference | null {
  const v = readLocal<string | null>(THEME_KEY, null);
  return v === 'light' || v === 'dark' || v === 'auto' ? v : null;
}

export function systemScheme(): 'light' | 'dark' {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function resolveScheme(pref: ThemePreference): 'light' | 'dark' {
  return pref === 'auto' ? systemScheme() : pref;
}
