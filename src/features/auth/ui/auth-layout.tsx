import type { ReactNode } from 'react';
import { Anchor, Box, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ThemeSwitch } from '../../../web/app/layouts/theme-switch';
import { LanguageMenu } from '../../../web/app/layouts/top-bar-tools';
import { FADE_MS, MESSAGES, useRotatingMessage } from './use-rotating-message';

/** The marketing panel of the auth screens: four messages, one every 5 s, with a 500 ms fade. */
export function MarketingPanel() {
  const { t } = useTranslation();
  const { index, key, visible } = useRotatingMessage();
  return (
    <Box
      visibleFrom="md"
      p={48}
      style={{
        flex: '1 1 50%',
        background: 'linear-gradient(135deg, var(--mantine-color-indigo-9), var(--mantine-color-indigo-6))',
        color: 'white',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
      }}
    >
      <Stack gap="md" maw={460} style={{ opacity: visible ? 1 : 0, transition: `opacity ${FADE_MS}ms ease` }} data-testid="marketing-message">
        <Title order={2} c="white">
          {t(`auth.marketing.${key}.title`)}
        </Title>
        <Text size="lg" c="indigo.1">
          {t(`auth.marketing.${key}.text`)}
        </Text>
      </Stack>
      <Group gap={8} mt="xl">
        {MESSAGES.map((m, i) => (
          <Box
            key={m}
            w={i === index ? 24 : 8}
            h={8}
            style={{ borderRadius: 4, background: 'white', opacity: i === index ? 1 : 0.4, transition: 'all 300ms' }}
          />
        ))}
      </Group>
    </Box>
  );
}

/** Auth screens: the form on one side, the marketing panel on the other. */
export function AuthLayout({ title, subtitle, children }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" style={{ display: 'flex' }}>
      <Box style={{ flex: '1 1 50%', display: 'flex', flexDirection: 'column' }} p="md">
        <Group justify="space-between">
          <Anchor component={Link} to="/" c="inherit" underline="never">
            <Group gap={6}>
              <ThemeIcon variant="light" radius="md">
                <IconTool size={18} />
              </ThemeIcon>
              <Text fw={800}>{t('landing.brand')}</Text>
            </Group>
          </Anchor>
          <Group gap="xs">
            <ThemeSwitch />
            <LanguageMenu />
          </Group>
        </Group>
        <Box style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }} py="xl">
          <Paper w="100%" maw={440} p="xl" radius="md" withBorder>
            <Title order={2} mb={4}>
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm" mb="lg">
                {subtitle}
              </Text>
            )}
            {children}
          </Paper>
        </Box>
      </Box>
      <MarketingPanel />
    </Box>
  );
}
