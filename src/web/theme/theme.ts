import { createTheme, mergeThemeOverrides, type CSSVariablesResolver, type MantineThemeOverride } from '@mantine/core';

/** The product's Mantine theme. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 6 under white text (buttons, active links) is below WCAG AA contrast (4.3:1); 7 and 8 pass.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", sans-serif' },
  cursorType: 'pointer',
  components: {
    // A menu holds only menu items: Mantine's focus placeholder (a bare div with a tabindex) in role="menu" is an axe
    // critical (aria-required-children). Named, not imported: Menu stays out of the entry chunk.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A badge's text isolated in either direction (decision 065): "WO-0007", "°C" or a Latin status keeps its order on
    // an Arabic page, an Arabic one on an English page (dir="auto" is an isolate, its direction from its own text).
    Badge: { defaultProps: { dir: 'auto' } },
  },
});

/** Relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of a colour against white. */
const contrastOnWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

/** `hex` mixed with black in 5 % steps until it reaches `ratio` against white (unchanged when it already does). */
export function darkEnough(hex: string, ratio: number): string {
  let mixed = hex;
  for (let black = 0.05; contrastOnWhite(mixed) < ratio && black < 1; black += 0.05) {
    mixed = `#${[1, 3, 5]
      .map((i) =>
        Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - black))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  }
  return mixed;
}

/**
 * WCAG AA contrast (issues 9 and 29; the axe sweep in e2e/accessibility.e2e.ts keeps it): dimmed text in gray 7
 * (light) / dark 1 (dark), placeholders at 4.6:1 (light) / dark 1 (dark); white text on a filled colour (buttons, badges, and in light theme that colour as text)
 * at 4.6:1 at least; the text of light variants (badges, the active menu entry) at 5.5:1 against white, so it stays
 * above 4.5:1 on its tinted, striped or hovered background. Mantine's shades 6 to 9 miss these for several colours.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const filled = (shade: number) =>
    Object.fromEntries(
      Object.keys(t.colors).flatMap((c) => {
        const colour = darkEnough(t.colors[c][shade], 4.6);
        return [
          [`--mantine-color-${c}-filled`, colour],
          [`--mantine-color-${c}-filled-hover`, darkEnough(colour, contrastOnWhite(colour) + 1)],
        ];
      }),
    );
  return {
    variables: {},
    light: {
      '--mantine-color-dimmed': t.colors.gray[7],
      '--mantine-color-placeholder': darkEnough(t.colors.gray[6], 4.6),
      '--mantine-color-error': darkEnough(t.colors.red[8], 4.6),
      ...filled(7),
      ...Object.fromEntries(Object.keys(t.colors).map((c) => [`--mantine-color-${c}-light-color`, darkEnough(t.colors[c][9], 5.5)])),
    },
    // Validation text (issue 46): Mantine's red 6/8 is 3.4:1 on the dark body; red 3 passes 4.5:1 there.
    dark: {
      '--mantine-color-dimmed': t.colors.dark[1],
      '--mantine-color-placeholder': t.colors.dark[1],
      '--mantine-color-error': t.colors.red[3],
      ...filled(8),
    },
  };
};

const named = new Map<string, MantineThemeOverride>();
/**
 * The theme with every close button named in the reader's language (decision 066): the drawers', the dialogs' and
 * the toasts' (an icon alone has no name). A screen's own `closeButtonProps` still wins.
 */
export function themeWithNames(closeLabel: string): MantineThemeOverride {
  let themed = named.get(closeLabel);
  if (!themed) {
    const closeButtonProps = { 'aria-label': closeLabel, title: closeLabel };
    themed = mergeThemeOverrides(theme, {
      components: {
        Modal: { defaultProps: { closeButtonProps } },
        Drawer: { defaultProps: { closeButtonProps } },
        Notification: { defaultProps: { closeButtonProps } },
      },
    });
    named.set(closeLabel, themed);
  }
  return themed;
}
