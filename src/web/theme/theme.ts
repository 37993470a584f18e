import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/** The product's Mantine theme. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 6 under white text (buttons, active links) is below WCAG AA contrast (4.3:1); 7 and 8 pass.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", sans-serif' },
  cursorType: 'pointer',
});

/** Dimmed text in gray 7 (light) / dark 1 (dark): Mantine's defaults are below WCAG AA contrast for small text. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] },
  dark: { '--mantine-color-dimmed': t.colors.dark[1] },
});
