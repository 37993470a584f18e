import { ActionIcon } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useThemePreference } from '../theme-preference';
import { DeferredTooltip } from '../../components/deferred-controls';
import type { ThemePreference } from '../../theme/color-scheme-preference';

/**
 * Light, dark and system offered at once (DESIGN 11), remembered on this device: three toggle buttons, the chosen
 * one pressed. Buttons the shell already has, not Mantine's SegmentedControl (its floating indicator was ~2.5 KB
 * of every signed-in page's first load, issue 46's weight budget).
 */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { preference, setPreference } = useThemePreference();
  const options: [ThemePreference, string, React.ReactNode][] = [
    ['light', t('shell.themeLight'), <IconSun size={16} />],
    ['dark', t('shell.themeDark'), <IconMoon size={16} />],
    ['auto', t('shell.themeSystem'), <IconDeviceDesktop size={16} />],
  ];
  return (
    <ActionIcon.Group aria-label={t('shell.theme')}>
      {options.map(([value, label, icon]) => (
        <DeferredTooltip key={value} label={label} withinPortal>
          <ActionIcon
            size="md"
            variant={preference === value ? 'filled' : 'default'}
            aria-pressed={preference === value}
            aria-label={label}
            data-testid={`theme-${value}`}
            onClick={() => setPreference(value)}
          >
            {icon}
          </ActionIcon>
        </DeferredTooltip>
      ))}
    </ActionIcon.Group>
  );
}
