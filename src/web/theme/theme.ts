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

/** Colours whose shade 9 is still too light for text on their own light background. */
const PALE = ['yellow', 'orange', 'lime'];

/**
 * WCAG AA contrast (accessibility 100, issue 9): dimmed text in gray 7 (light) / dark 1 (dark), and the text of
 * light variants (badges, the active menu entry) in shade 9, darker still for the pale colours. Mantine's
 * defaults (gray 6, shade 6) are below 4.5:1 for small text.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    ...Object.fromEntries(
      Object.keys(t.colors).map((c) => [`--mantine-color-${c}-light-color`, PALE.includes(c) ? `color-mix(in srgb, ${t.colors[c][9]}, black 45%)` : t.colors[c][9]]),
    ),
  },
  dark: { '--mantine-color-dimmed': t.colors.dark[1] },
});
