import { createContext, useContext, useState, type ReactNode } from 'react';
import { useColorScheme } from '@mantine/hooks';
import { useLocation } from 'react-router';
import { writeLocal } from '../lib/local-store';
import { areaDefault, storedPreference, THEME_KEY, type ThemePreference } from '../theme/color-scheme-preference';

interface ThemeContextValue {
  /** The user's choice, or the area's default when they made none. */
  preference: ThemePreference;
  scheme: 'light' | 'dark';
  setPreference(p: ThemePreference): void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

/**
 * Light, dark or system, remembered in localStorage. Without a stored choice the public landing pages are
 * dark and the rest follows the system (spec sections 1 and document 2).
 */
export function ThemePreferenceProvider({ children }: { children: (scheme: 'light' | 'dark') => ReactNode }) {
  const { pathname } = useLocation();
  const [stored, setStored] = useState<ThemePreference | null>(() => storedPreference());
  const system = useColorScheme(typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  const preference = stored ?? areaDefault(pathname);
  const scheme = preference === 'auto' ? system : preference;
  const value: ThemeContextValue = {
    preference,
    scheme,
    setPreference: (p) => {
      setStored(p);
      writeLocal(THEME_KEY, p);
    },
  };
  return <ThemeContext.Provider value={value}>{children(scheme)}</ThemeContext.Provider>;
}

export function useThemePreference(): ThemeContextValue {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error('useThemePreference outside ThemePreferenceProvider');
  return ctx;
}
