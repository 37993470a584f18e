import { Center, SegmentedControl, VisuallyHidden } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useThemePreference } from '../theme-preference';
import { DeferredTooltip } from '../../components/deferred-controls';
import type { ThemePreference } from '../../theme/color-scheme-preference';

/** Light, dark and system offered at once (DESIGN 11), remembered on this device. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { preference, setPreference } = useThemePreference();
  const item = (value: ThemePreference, label: string, icon: React.ReactNode) => ({
    value,
    label: (
      <DeferredTooltip label={label} withinPortal>
        <Center data-testid={`theme-${value}`} aria-label={label}>
          {icon}
          <VisuallyHidden>{label}</VisuallyHidden>
        </Center>
      </DeferredTooltip>
    ),
  });
  return (
    <SegmentedControl
      size="xs"
      value={preference}
      onChange={(v) => setPreference(v as ThemePreference)}
      aria-label={t('shell.theme')}
      data={[
        item('light', t('shell.themeLight'), <IconSun size={16} />),
        item('dark', t('shell.themeDark'), <IconMoon size={16} />),
        item('auto', t('shell.themeSystem'), <IconDeviceDesktop size={16} />),
      ]}
    />
  );
}
