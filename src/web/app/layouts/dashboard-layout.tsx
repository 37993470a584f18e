import { lazy, Suspense, useEffect, useState } from 'react';
import { ActionIcon, Anchor, AppShell, Avatar, Badge, Burger, Center, Divider, Group, Loader, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconLayoutDashboard, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconSettings } from '@tabler/icons-react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useAppData } from '../../lib/app-data';
import { readLocal, writeLocal } from '../../lib/local-store';
import { setLanguage } from '../../i18n';
import { languageChosenHere } from '../../i18n/language';
import skipLink from './skip-link.module.css';
import { useAuth } from '../auth-context';
import { dashboardMenu, menuCountKey, settingsMenu, SETTINGS_HOME, type MenuItem } from '../menu';
import { ThemeSwitch } from './theme-switch';
import { PageErrorBoundary } from '../error-boundary';
import { DeferredTooltip } from '../../components/deferred-controls';
import { OfflineNotice } from '../../components/offline-notice';
import { FullscreenToggle, LanguageMenu, NotificationsMenu, UserMenu } from './top-bar-tools';

// The profile and company dialogs (forms, uploads) load when opened from the user menu: the shell stays small.
const ProfileDialog = lazy(() => import('../../../features/users/ui/profile-dialog').then((m) => ({ default: m.ProfileDialog })));
const CompanyDialog = lazy(() => import('../../../features/organization/ui/company-dialog').then((m) => ({ default: m.CompanyDialog })));

export const COLLAPSED_KEY = 'sidebarCollapsed';

function FullPageSpinner() {
  return (
    <Center h="100vh" data-testid="auth-loading">
      <Loader />
    </Center>
  );
}

/** The protected area: a spinner while sign-in resolves, /login when signed out, then the shell. */
export function ProtectedArea() {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'signedOut') return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <DashboardLayout />;
}

function MenuLink({ item, collapsed, onNavigate }: { item: MenuItem; collapsed: boolean; onNavigate(): void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const label = t(`menu.items.${item.key}`);
  const count = useQuery({
    queryKey: menuCountKey(item.countPath),
    enabled: !!item.countPath,
    queryFn: ({ signal }) => api.get<{ count: number }>(item.countPath!, { signal }),
    refetchInterval: 60_000,
    retry: false,
  }).data?.count;
  const link = (
    <NavLink
      rightSection={
        count && !collapsed ? (
          <Badge size="sm" circle={count < 10} color="red" data-testid={`menu-${item.key}-count`}>
            {count > 99 ? '99+' : count}
          </Badge>
        ) : undefined
      }
      component={Link}
      to={item.path}
      label={collapsed ? undefined : label}
      aria-label={label}
      leftSection={<item.icon size={20} stroke={1.6} />}
      active={pathname === item.path || pathname.startsWith(`${item.path}/`)}
      onClick={onNavigate}
      data-testid={`menu-${item.key}`}
      styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
    />
  );
  return collapsed ? (
    <DeferredTooltip label={label} position="right" withinPortal>
      {link}
    </DeferredTooltip>
  ) : (
    link
  );
}

/** The organisation's logo and name (the application data's company; the app's name until it arrives). */
function Brand() {
  const { t } = useTranslation();
  const company = useAppData().data?.company;
  return (
    <Anchor component={Link} to="/dashboard/work-orders" c="inherit" underline="never">
      <Group gap={8} wrap="nowrap">
        <Avatar src={company?.profilePictureLow ?? undefined} radius="md" size={32} color="indigo">
          {(company?.organization ?? 'C').slice(0, 1).toUpperCase()}
        </Avatar>
        <Text fw={700} visibleFrom="xs" truncate maw={220} data-testid="brand">
          {/* the organisation's name is user data: isolated, so "Demo Manufacturing Co." keeps its order in Arabic (decision 065) */}
          <bdi>{company?.organization ?? t('appName')}</bdi>
        </Text>
      </Group>
    </Anchor>
  );
}

/**
 * The profile's language is the default of a device where no language was chosen yet: a choice made on this
 * device (the language menu, the login screen) sticks across reloads and sign-ins until changed here.
 */
export function ProfileLanguage() {
  const { i18n } = useTranslation();
  const userLanguage = useAppData().data?.loggedInUser.language;
  useEffect(() => {
    if (userLanguage && !languageChosenHere() && userLanguage !== i18n.language) setLanguage(userLanguage);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userLanguage]);
  return null;
}

/**
 * Side menu (collapsible, remembered; a drawer on phones) and top bar around the signed-in pages. The application
 * data is read by the small parts that show it (Brand, ProfileLanguage, the user menu): when it arrives, they
 * re-render, not the whole shell.
 */
export function DashboardLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [mobileOpened, mobile] = useDisclosure(false);
  const [collapsed, setCollapsed] = useState<boolean>(() => readLocal(COLLAPSED_KEY, false));
  const phone = useMediaQuery('(max-width: 48em)');
  const [dialog, setDialog] = useState<'profile' | 'company' | null>(null);
  const inSettings = pathname.startsWith('/settings');
  const mini = collapsed && !phone;

  const toggleCollapsed = () => {
    setCollapsed((c) => {
      writeLocal(COLLAPSED_KEY, !c);
      return !c;
    });
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: mini ? 76 : 264, breakpoint: 'sm', collapsed: { mobile: !mobileOpened } }}
      padding="md"
      data-collapsed={mini ? 'true' : 'false'}
    >
      <ProfileLanguage />
      <a href="#main-content" className={skipLink.skip} data-testid="skip-link">
        {t('shell.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={mobileOpened} onClick={mobile.toggle} hiddenFrom="sm" size="sm" aria-label={t('shell.openMenu')} />
            <DeferredTooltip label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}>
              <ActionIcon
                variant="subtle"
                size="lg"
                visibleFrom="sm"
                onClick={toggleCollapsed}
                aria-label={collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')}
                data-testid="collapse-menu"
              >
                {collapsed ? <IconLayoutSidebarLeftExpand size={20} /> : <IconLayoutSidebarLeftCollapse size={20} />}
              </ActionIcon>
            </DeferredTooltip>
            <Brand />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <FullscreenToggle />
            <ThemeSwitch />
            <LanguageMenu />
            <NotificationsMenu />
            <UserMenu onProfile={() => setDialog('profile')} onCompany={() => setDialog('company')} />
          </Group>
        </Group>
      </AppShell.Header>

      {/* A phone's closed menu is off screen: out of the Tab order and the accessibility tree too. */}
      <AppShell.Navbar p="sm" data-testid="side-menu" inert={phone && !mobileOpened ? true : undefined}>
        <AppShell.Section grow component={ScrollArea}>
          {inSettings ? (
            <Stack gap={2}>
              {!mini && (
                <Text size="xs" tt="uppercase" fw={700} c="dimmed" px="sm" pt="xs" pb={4}>
                  {t('menu.groups.settings')}
                </Text>
              )}
              {settingsMenu.map((item) => (
                <MenuLink key={item.key} item={item} collapsed={mini} onNavigate={mobile.close} />
              ))}
            </Stack>
          ) : (
            <Stack gap={4}>
              {dashboardMenu.map((group) => (
                <Stack gap={2} key={group.key}>
                  {mini ? (
                    <Divider my={4} />
                  ) : (
                    <Text size="xs" tt="uppercase" fw={700} c="dimmed" px="sm" pt="xs" pb={4}>
                      {t(`menu.groups.${group.key}`)}
                    </Text>
                  )}
                  {group.items.map((item) => (
                    <MenuLink key={item.key} item={item} collapsed={mini} onNavigate={mobile.close} />
                  ))}
                </Stack>
              ))}
            </Stack>
          )}
        </AppShell.Section>
        <AppShell.Section>
          <Divider my="sm" />
          {inSettings ? (
            <MenuLink item={{ key: 'dashboard', path: '/dashboard/analytics', icon: IconLayoutDashboard }} collapsed={mini} onNavigate={mobile.close} />
          ) : (
            <>
              <MenuLink item={{ key: 'settings', path: SETTINGS_HOME, icon: IconSettings }} collapsed={mini} onNavigate={mobile.close} />
            </>
          )}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id="main-content" tabIndex={-1}>
        <OfflineNotice />
        <Suspense
          fallback={
            <Center py={80}>
              <Loader />
            </Center>
          }
        >
          <PageErrorBoundary key={pathname}>
            <Outlet />
          </PageErrorBoundary>
        </Suspense>
      </AppShell.Main>
      <Suspense fallback={null}>
        {dialog === 'profile' && <ProfileDialog opened onClose={() => setDialog(null)} />}
        {dialog === 'company' && <CompanyDialog opened onClose={() => setDialog(null)} />}
      </Suspense>
    </AppShell>
  );
}
