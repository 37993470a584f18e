import { ActionIcon, Avatar, Group, Indicator, ScrollArea, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useFullscreen } from '@mantine/hooks';
import { cloneElement, lazy, Suspense, useState } from 'react';
import { IconBell, IconBuilding, IconCookie, IconLanguage, IconLogout, IconMaximize, IconMinimize, IconSettings, IconUser } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import './bell-i18n';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useAppData } from '../../lib/app-data';
import { LANGUAGES, setLanguage, type Language } from '../../i18n';
import { useAuth } from '../auth-context';
import { Deferred, DeferredTooltip, openWhenReady } from '../../components/deferred-controls';
import type { NotificationItem } from '../../../features/notifications/notifications.schema';
import type { TFunction } from 'i18next';
import { useNavigate } from 'react-router';
import { recordLink, recordName } from '../record-links';
import { menuCountKey, NEW_REQUESTS_COUNT_PATH } from '../menu';

// Loaded when first opened: the shell's own bundle stays small.
const NotificationSettingsDialog = lazy(() =>
  import('../../../features/notifications/ui/notification-preferences-dialog').then((m) => ({ default: m.NotificationPreferencesDialog })),
);
const CookieSettingsDialog = lazy(() => import('./cookie-settings-dialog').then((m) => ({ default: m.CookieSettingsDialog })));

type SettingsDialog = 'notifications' | 'cookies' | null;

/** The settings dialogs a menu opens: `open(which)`, and `dialogs` to render beside the menu (each mounted only while open). */
function useSettingsDialogs() {
  const [open, setOpen] = useState<SettingsDialog>(null);
  const onClose = () => setOpen(null);
  const dialogs = (
    <Suspense fallback={null}>
      {open === 'notifications' && <NotificationSettingsDialog opened onClose={onClose} />}
      {open === 'cookies' && <CookieSettingsDialog opened onClose={onClose} />}
    </Suspense>
  );
  return { open: setOpen, dialogs };
}

export function FullscreenToggle() {
  const { t } = useTranslation();
  const { toggle, fullscreen } = useFullscreen();
  const label = fullscreen ? t('shell.exitFullscreen') : t('shell.fullscreen');
  return (
    <DeferredTooltip label={label}>
      <ActionIcon variant="default" size="lg" onClick={() => void toggle()} aria-label={label} data-testid="fullscreen-toggle">
        {fullscreen ? <IconMinimize size={18} /> : <IconMaximize size={18} />}
      </ActionIcon>
    </DeferredTooltip>
  );
}

// The menus come with the interactive controls (deferred-controls.tsx): until the user's first interaction their
// buttons stand alone, and a click on one opens its menu once they are there.
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const button = (
    <ActionIcon variant="default" size="lg" aria-label={t('shell.language')} data-testid="language-menu">
      <IconLanguage size={18} />
    </ActionIcon>
  );
  return (
    <Deferred placeholder={cloneElement(button, { onClick: openWhenReady })}>
      {({ Menu, Tooltip }) => (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Tooltip label={t('shell.language')}>{button}</Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            {LANGUAGES.map((l) => (
              <Menu.Item key={l.value} onClick={() => setLanguage(l.value as Language)} fw={i18n.language === l.value ? 700 : undefined}>
                {l.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </Deferred>
  );
}

/** One notification's sentence in the reader's language (decision 074). */
function notificationText(t: TFunction, n: NotificationItem) {
  const record = [n.data.number ?? recordName(t, n.entityType, n.entityId), n.data.title].filter(Boolean).join(' ');
  const status = (s?: string) => (s ? t(`bell:notifyStatus.${s}`, { defaultValue: s }) : '');
  const key = n.kind === 'assigned' && n.data.team ? 'assignedTeam' : n.entityType === 'portal-request' ? 'portalRequest' : n.kind;
  return t(`bell:notify.${key}`, {
    ...n.data,
    record,
    due: n.data.dueDate ?? '',
    from: status(n.data.from),
    to: status(n.data.to),
    actor: n.data.actorName ?? '',
    location: n.data.location ?? '',
    quantity: n.data.quantity ?? 0,
    reorderPoint: n.data.reorderPoint ?? 0,
  });
}

const NOTIFICATIONS_KEY = ['notifications', 'mine'];

/** The bell: my notifications (decision 074), unread ones counted; new portal requests waiting for triage too. */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: ({ signal }) => api.get<{ notifications: NotificationItem[]; unread: number }>('/notifications', { signal }),
    refetchInterval: 60_000,
    retry: false,
  });
  const items = query.data?.notifications ?? [];
  // New requests from the public portal wait for triage: counted in the bell until they are triaged.
  const newRequests =
    useQuery({
      queryKey: menuCountKey(NEW_REQUESTS_COUNT_PATH),
      queryFn: ({ signal }) => api.get<{ count: number }>(NEW_REQUESTS_COUNT_PATH, { signal }),
      refetchInterval: 60_000,
      retry: false,
    }).data?.count ?? 0;
  const unread = (query.data?.unread ?? 0) + newRequests;
  const settings = useSettingsDialogs();
  const markRead = async (ids?: number[]) => {
    const answer = await api.post<{ unread: number }>('/notifications/read', ids ? { ids } : {});
    queryClient.setQueryData<{ notifications: NotificationItem[]; unread: number }>(NOTIFICATIONS_KEY, (old) =>
      old ? { unread: answer.unread, notifications: old.notifications.map((n) => (!ids || ids.includes(n.id) ? { ...n, read: true } : n)) } : old,
    );
  };
  const bell = (onClick?: (event: { currentTarget: Element }) => void) => (
    <Indicator label={unread > 9 ? '9+' : unread} size={16} disabled={unread === 0} offset={4} color="red">
      <ActionIcon variant="default" size="lg" aria-label={t('shell.notifications')} data-testid="notifications" onClick={onClick}>
        <IconBell size={18} />
      </ActionIcon>
    </Indicator>
  );
  return (
    <>
      <Deferred placeholder={bell(openWhenReady)}>
        {({ Menu, Tooltip }) => (
          <Menu position="bottom-end" width={340} withinPortal>
            <Menu.Target>
              <Tooltip label={t('shell.notifications')}>{bell()}</Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              <Group justify="space-between" wrap="nowrap">
                <Menu.Label>{t('shell.notifications')}</Menu.Label>
                {items.some((i) => !i.read) && (
                  <UnstyledButton fz="xs" c="blue" px="sm" onClick={() => void markRead()} data-testid="notifications-mark-all">
                    {t('bell:markAllRead')}
                  </UnstyledButton>
                )}
              </Group>
              {newRequests > 0 && (
                <Menu.Item onClick={() => navigate('/dashboard/requests')} data-testid="notification-new-requests">
                  <Text size="sm" fw={600}>
                    {t('shell.newRequests', { count: newRequests })}
                  </Text>
                </Menu.Item>
              )}
              {items.length === 0 && (
                <Text size="sm" c="dimmed" p="sm">
                  {t('shell.noNotifications')}
                </Text>
              )}
              <ScrollArea.Autosize mah={360}>
                {items.map((n) => {
                  const link = recordLink(n.entityType, n.entityId);
                  return (
                    <Menu.Item
                      key={n.id}
                      onClick={() => {
                        if (!n.read) void markRead([n.id]);
                        if (link) navigate(link);
                      }}
                      data-testid="notification-item"
                      data-unread={n.read ? undefined : 'true'}
                    >
                      <Text size="sm" fw={n.read ? 400 : 600}>
                        <bdi>{notificationText(t, n)}</bdi>
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(n.createdAt)}
                      </Text>
                    </Menu.Item>
                  );
                })}
              </ScrollArea.Autosize>
              <Menu.Divider />
              <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => settings.open('notifications')} data-testid="bell-notification-settings">
                {t('shell.notificationSettings')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Deferred>
      {settings.dialogs}
    </>
  );
}

export function UserMenu({ onProfile, onCompany }: { onProfile(): void; onCompany(): void }) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const user = useAppData().data?.loggedInUser;
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.email : '';
  const settings = useSettingsDialogs();
  const button = (
    <UnstyledButton data-testid="user-menu">
      {/* named by its content (an aria-label would have to repeat the visible name and initial, WCAG 2.5.3) */}
      <VisuallyHidden>{t('shell.userMenu')}</VisuallyHidden>
      <Group gap={8} wrap="nowrap">
        <Avatar src={user?.profilePictureLow ?? undefined} radius="xl" size={32} alt={name}>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
          <bdi>{name}</bdi>
        </Text>
      </Group>
    </UnstyledButton>
  );
  return (
    <>
      <Deferred placeholder={cloneElement(button, { onClick: openWhenReady })}>
        {({ Menu }) => (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>{button}</Menu.Target>
            <Menu.Dropdown>
              {user && (
                <Menu.Label>
                  {user.email} · {t(`roles.${user.role}`)}
                </Menu.Label>
              )}
              <Menu.Item leftSection={<IconUser size={16} />} onClick={onProfile} data-testid="menu-profile">
                {t('shell.profile')}
              </Menu.Item>
              <Menu.Item leftSection={<IconBuilding size={16} />} onClick={onCompany} data-testid="menu-company">
                {t('shell.companyProfile')}
              </Menu.Item>
              <Menu.Item leftSection={<IconBell size={16} />} onClick={() => settings.open('notifications')} data-testid="menu-notification-settings">
                {t('shell.notificationSettings')}
              </Menu.Item>
              <Menu.Item leftSection={<IconCookie size={16} />} onClick={() => settings.open('cookies')} data-testid="menu-cookie-settings">
                {t('shell.cookieSettings')}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item
                color="red"
                c="var(--mantine-color-red-text)"
                leftSection={<IconLogout size={16} />}
                onClick={() => void signOut()}
                data-testid="menu-sign-out"
              >
                {t('shell.signOut')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Deferred>
      {settings.dialogs}
    </>
  );
}
