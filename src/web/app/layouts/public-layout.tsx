import { useState } from 'react';
import { Anchor, Box, Burger, Button, Container, Drawer, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconTool } from '@tabler/icons-react';
import { Link, NavLink as RouterNavLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth-context';
import { SubdomainDialog } from './subdomain-dialog';
import { ThemeSwitch } from './theme-switch';
import { LanguageMenu } from './top-bar-tools';

const links = [
  { to: '/', key: 'home' },
  { to: '/features', key: 'features' },
  { to: '/pricing', key: 'pricing' },
  { to: '/contact', key: 'contact' },
];

/** The public site: brand, Home, Features, Pricing, Contact; Login (subdomain dialog) and Request for Demo, or Dashboard. */
export function PublicLayout() {
  const { t } = useTranslation();
  const { status } = useAuth();
  const [menuOpened, menu] = useDisclosure(false);
  const [loginOpen, setLoginOpen] = useState(false);

  const nav = (vertical: boolean) =>
    links.map((l) => (
      <Anchor
        key={l.to}
        component={RouterNavLink}
        to={l.to}
        end
        c="inherit"
        fw={500}
        onClick={menu.close}
        size={vertical ? 'lg' : 'sm'}
        data-testid={`nav-${l.key}`}
        style={({ isActive }: { isActive: boolean }) => ({ opacity: isActive ? 1 : 0.75 })}
      >
        {t(`landing.nav.${l.key}`)}
      </Anchor>
    ));

  const actions = (
    <>
      {status === 'signedIn' ? (
        <Button component={Link} to="/dashboard/work-orders" data-testid="landing-dashboard">
          {t('landing.dashboard')}
        </Button>
      ) : (
        <>
          <Button variant="default" onClick={() => setLoginOpen(true)} data-testid="landing-login">
            {t('landing.login')}
          </Button>
          <Button component={Link} to="/demo-request" data-testid="landing-demo">
            {t('landing.requestDemo')}
          </Button>
        </>
      )}
    </>
  );

  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="lg">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="xl" wrap="nowrap">
              <Anchor component={Link} to="/" c="inherit" underline="never" data-testid="brand">
                <Group gap={6} wrap="nowrap">
                  <IconTool size={24} color="var(--mantine-color-indigo-5)" />
                  <Text fw={800} size="lg">
                    {t('landing.brand')}
                  </Text>
                </Group>
              </Anchor>
              <Group gap="lg" visibleFrom="sm">
                {nav(false)}
              </Group>
            </Group>
            <Group gap="xs" visibleFrom="sm" wrap="nowrap">
              <ThemeSwitch />
              <LanguageMenu />
              {actions}
            </Group>
            <Burger opened={menuOpened} onClick={menu.toggle} hiddenFrom="sm" aria-label={t('shell.openMenu')} />
          </Group>
        </Container>
      </Box>
      <Drawer opened={menuOpened} onClose={menu.close} size="80%" title={t('landing.brand')} hiddenFrom="sm">
        <Stack>
          {nav(true)}
          <Group>
            <ThemeSwitch />
            <LanguageMenu />
          </Group>
          {actions}
        </Stack>
      </Drawer>
      <Box component="main" style={{ flex: 1 }}>
        <Outlet />
      </Box>
      <Box component="footer" py="lg" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Container size="lg">
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} {t('landing.brand')} · {t('landing.footer')}
          </Text>
        </Container>
      </Box>
      <SubdomainDialog opened={loginOpen} onClose={() => setLoginOpen(false)} />
    </Box>
  );
}
