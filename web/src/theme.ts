/**
 * The Mantine theme, light and dark. Mantine's default palette puts several text colours under the
 * WCAG AA contrast of 4.5:1 (dimmed grey, green, orange, teal, yellow and lime text, white text on
 * green or orange buttons); axe (web/e2e/accessibility.e2e.test.ts) checks every route, so the
 * colours are set here once:
 * - filled components use shade 8 in light mode, and pick black or white text by luminance;
 * - coloured text (`c="green"`, light badges) uses a shade that reads at 4.5:1 or better on white
 *   and on the colour's light tint; dimmed text is grey 7 (light) and dark 1 (dark).
 * Every dialog's close button is named 'Close'; links are underlined; reduced motion is respected.
 */
import { Anchor, Modal, createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  // Black text from this luminance up: green, orange, teal, yellow and lime buttons read in black.
  luminanceThreshold: 0.18,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  // Players who ask their system for less motion get no transitions (dialogs, menus, tabs).
  respectReducedMotion: true,
  components: {
    // Every dialog's close button has a name (Mantine's has none by default).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // Links are underlined: inside a sentence, colour alone does not set them apart from the text.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
  },
});

/** Light-mode text shades with at least 4.8:1 on white and on the colour's light tint (shade 1). */
const LIGHT_TEXT: Record<string, string> = {
  green: '#257735',
  orange: '#b63c0d',
  teal: '#077554',
  yellow: '#a15300',
  lime: '#4a760a',
  cyan: '#0b7082',
  red: '#c12828',
  blue: 'var(--mantine-color-blue-9)',
  grape: 'var(--mantine-color-grape-9)',
  indigo: 'var(--mantine-color-indigo-9)',
  violet: 'var(--mantine-color-violet-9)',
  pink: 'var(--mantine-color-pink-9)',
  gray: 'var(--mantine-color-gray-8)',
};

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-9)',
    ...Object.fromEntries(
      Object.entries(LIGHT_TEXT).flatMap(([color, value]) => [
        [`--mantine-color-${color}-text`, value],
        [`--mantine-color-${color}-light-color`, value],
        [`--mantine-color-${color}-outline`, value],
      ]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    // Outline badges and buttons: shade 4, as coloured text is in dark mode.
    ...Object.fromEntries(Object.keys(LIGHT_TEXT).map((color) => [`--mantine-color-${color}-outline`, `var(--mantine-color-${color}-4)`])),
  },
});
