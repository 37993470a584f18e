import { useEffect, useState } from 'react';
import { Checkbox, Divider, Group, Loader, Modal, NumberInput, Select, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { DialogActions } from '../../../web/components/dialog-actions';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import type { KindChannels, NotificationKind, NotificationOrgSettings, NotificationPreferences } from '../notifications.schema';
import './notifications-i18n';

type PreferencesAnswer = { preferences: NotificationPreferences; kinds: NotificationKind[] };
const PREFERENCES_KEY = ['notifications', 'preferences'];
const ORG_KEY = ['notifications', 'organization-settings'];

/** Every half hour of the day, 'HH:MM' (a list, not a native time input). */
const TIMES = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
const CHANNELS = ['inApp', 'email', 'push', 'digest'] as const;

/** Per kind of event, a checkbox per channel (the digest only with e-mail). */
function ChannelsTable({
  kinds,
  prefs,
  setChannel,
}: {
  kinds: NotificationKind[];
  prefs: NotificationPreferences;
  setChannel(kind: NotificationKind, channel: keyof KindChannels, on: boolean): void;
}) {
  const { t } = useTranslation('notifications');
  return (
    <Table withRowBorders={false} verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('kind')}</Table.Th>
          {CHANNELS.map((c) => (
            <Table.Th key={c} ta="center">
              {t(c)}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {kinds.map((kind) => (
          <Table.Tr key={kind}>
            <Table.Td>
              <Text size="sm">{t(`kinds.${kind}`)}</Text>
            </Table.Td>
            {CHANNELS.map((c) => (
              <Table.Td key={c} ta="center">
                <Checkbox
                  display="inline-block"
                  checked={prefs.kinds[kind][c]}
                  disabled={c === 'digest' && !prefs.kinds[kind].email}
                  onChange={(e) => setChannel(kind, c, e.currentTarget.checked)}
                  aria-label={`${t(`kinds.${kind}`)}: ${t(c)}`}
                  data-testid={`notify-${kind}-${c}`}
                />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Profile / Notification settings (decision 074): per kind of event the channels (bell, e-mail, push) and the
 * daily digest, quiet hours; managers also set the organisation's "due soon" lead time and digest time.
 */
export function NotificationPreferencesDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const manager = useIsManager();
  const query = useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: ({ signal }) => api.get<PreferencesAnswer>('/notifications/preferences', { signal }),
    enabled: opened,
  });
  const orgQuery = useQuery({
    queryKey: ORG_KEY,
    queryFn: ({ signal }) => api.get<{ settings: NotificationOrgSettings }>('/notifications/organization-settings', { signal }),
    enabled: opened && manager,
  });
  const [prefs, setPrefs] = useState<NotificationPreferences | null>(null);
  const [org, setOrg] = useState<NotificationOrgSettings | null>(null);
  useEffect(() => {
    if (query.data) setPrefs(query.data.preferences);
  }, [query.data]);
  useEffect(() => {
    if (orgQuery.data) setOrg(orgQuery.data.settings);
  }, [orgQuery.data]);
  useEffect(() => {
    if (query.isError) notifyError(t('loadFailed'));
  }, [query.isError, t]);

  const save = useMutation({
    mutationFn: async () => {
      const saved = await api.put<PreferencesAnswer>('/notifications/preferences', prefs);
      if (manager && org) await api.put('/notifications/organization-settings', org);
      return saved;
    },
    onSuccess: (data) => {
      queryClient.setQueryData(PREFERENCES_KEY, data);
      void queryClient.invalidateQueries({ queryKey: ORG_KEY });
      notifySuccess(t('saved'));
      onClose();
    },
    onError: () => notifyError(t('saveFailed')),
  });

  const setChannel = (kind: NotificationKind, channel: keyof KindChannels, on: boolean) =>
    setPrefs((p) => (p ? { ...p, kinds: { ...p.kinds, [kind]: { ...p.kinds[kind], [channel]: on } } } : p));
  const timeOptions = [{ value: '', label: t('off') }, ...TIMES.map((x) => ({ value: x, label: x }))];

  return (
    <Modal opened={opened} onClose={onClose} title={t('title')} centered size="lg">
      {!prefs || !query.data ? (
        <Group justify="center" p="lg">
          {query.isError ? <Text c="dimmed">{t('loadFailed')}</Text> : <Loader size="sm" aria-label={t('title')} />}
        </Group>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
          data-testid="notification-settings-form"
        >
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('intro')}
            </Text>
            <ChannelsTable kinds={query.data.kinds} prefs={prefs} setChannel={setChannel} />
            <Text size="xs" c="dimmed">
              {t('digestHint')}
            </Text>
            <Divider label={t('quietHours')} labelPosition="left" />
            <Text size="xs" c="dimmed">
              {t('quietHint')}
            </Text>
            <Group grow>
              <Select
                label={t('quietStart')}
                data={timeOptions}
                value={prefs.quietStart ?? ''}
                onChange={(v) => setPrefs({ ...prefs, quietStart: v || null, quietEnd: v ? (prefs.quietEnd ?? '07:00') : null })}
                allowDeselect={false}
                data-testid="quiet-start"
              />
              <Select
                label={t('quietEnd')}
                data={timeOptions}
                value={prefs.quietEnd ?? ''}
                onChange={(v) => setPrefs({ ...prefs, quietEnd: v || null, quietStart: v ? (prefs.quietStart ?? '22:00') : null })}
                allowDeselect={false}
                data-testid="quiet-end"
              />
            </Group>
            {manager && org && (
              <>
                <Divider label={t('organization')} labelPosition="left" />
                <Group grow align="flex-end">
                  <NumberInput
                    label={t('dueSoonHours')}
                    min={1}
                    max={336}
                    value={org.dueSoonHours}
                    onChange={(v) => setOrg({ ...org, dueSoonHours: typeof v === 'number' ? v : Number(v) || 1 })}
                    data-testid="due-soon-hours"
                  />
                  <Select
                    label={t('digestTime')}
                    data={TIMES}
                    value={org.digestTime}
                    onChange={(v) => v && setOrg({ ...org, digestTime: v })}
                    allowDeselect={false}
                    data-testid="digest-time"
                  />
                </Group>
              </>
            )}
            <DialogActions onCancel={onClose} submitLabel={t('common:actions.save')} loading={save.isPending} testId="notification-settings-save" mt="sm" />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
