// Runs before the app (an external module: the CSP forbids inline scripts) so the first paint has the right theme.
import { areaDefault, resolveScheme, storedPreference } from './theme/color-scheme-preference';

const scheme = resolveScheme(storedPreference() ?? areaDefault(window.location.pathname));
document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
document.documentElement.style.colorScheme = scheme;
