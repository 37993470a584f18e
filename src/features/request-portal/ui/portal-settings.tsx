import { useEffect, useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Stack, Switch, Text, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess, useBusyAction } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { AssetMultiSelect } from '../../assets/ui/asset-select';
import { FIELD_MODES, PORTAL_LIMITS, type FieldMode } from '../request-portal.schema';
import { PrintLabelsModal } from '../../../web/components/print-labels';
import './labels';

interface SettingsDto {
  enabled: boolean;
  nameField: FieldMode;
  emailField: FieldMode;
  phoneField: FieldMode;
  notifyRequester: boolean;
  welcome: string | null;
  published: { kind: 'asset' | 'work-station'; id: number; name: string }[];
}

const SETTINGS_KEY = ['portal', 'settings'];

/** The portal's settings (admins): on or off, contact fields, welcome text, the general form's assets. */
export function SettingsModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('portal');
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => api.get<SettingsDto>('/portal/settings', { signal }) });
  const [draft, setDraft] = useState<SettingsDto | null>(null);
  const { busy, run: withBusy } = useBusyAction();
  useEffect(() => {
    if (query.data && !draft) setDraft(query.data);
  }, [query.data, draft]);
  const save = async () => {
    if (!draft) return;
    await withBusy(async () => {
      const result = await api.put<{ settings: SettingsDto }>('/portal/settings', {
        ...draft,
        welcome: draft.welcome ?? '',
        published: draft.published.map(({ kind, id }) => ({ kind, id })),
      });
      // The next opening shows what was saved, not the copy read before.
      queryClient.setQueryData(SETTINGS_KEY, result.settings);
      notifySuccess(t('saved'));
      onClose();
    }, t('failed'));
  };
  const assetIds = draft?.published.filter((p) => p.kind === 'asset').map((p) => p.id) ?? [];
  return (
    <Modal opened onClose={onClose} title={t('settings')} size="lg" data-testid="portal-settings">
      {!draft ? (
        <Text c="dimmed">…</Text>
      ) : (
        <Stack gap="sm">
          <Switch
            label={t('enabled')}
            checked={draft.enabled}
            onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
            data-testid="portal-enabled"
          />
          {(['nameField', 'emailField', 'phoneField'] as const).map((f) => (
            <Stack key={f} gap={4}>
              <Text size="sm" fw={500}>
                {t(f)}
              </Text>
              <SegmentedControl
                value={draft[f]}
                onChange={(v) => setDraft({ ...draft, [f]: v as FieldMode })}
                data={FIELD_MODES.map((m) => ({ value: m, label: t(`fieldMode.${m}`) }))}
                data-testid={`portal-${f}`}
              />
            </Stack>
          ))}
          <Switch label={t('notify')} checked={draft.notifyRequester} onChange={(e) => setDraft({ ...draft, notifyRequester: e.currentTarget.checked })} />
          <Textarea
            label={t('welcome')}
            value={draft.welcome ?? ''}
            onChange={(e) => setDraft({ ...draft, welcome: e.currentTarget.value })}
            maxLength={PORTAL_LIMITS.welcomeMax}
            autosize
            minRows={2}
            data-testid="portal-welcome"
          />
          <AssetMultiSelect
            label={t('published')}
            value={assetIds}
            onChange={(ids) =>
              setDraft({
                ...draft,
                published: [...draft.published.filter((p) => p.kind !== 'asset'), ...ids.map((id) => ({ kind: 'asset' as const, id, name: '' }))],
              })
            }
            initialOptions={draft.published.filter((p) => p.kind === 'asset').map((p) => ({ value: p.id, label: p.name }))}
            allowAddNew={false}
            testId="portal-published"
          />
          <Text size="sm">
            {t('generalUrl')}: <code>{`${window.location.origin}/portal`}</code>
          </Text>
          <Group justify="flex-end">
            <Button loading={busy} onClick={() => void save()} data-testid="portal-settings-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Label PDFs from the inbox: assets picked here (the Assets and Work stations lists print their chosen rows). */
export function LabelsModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('portal');
  const [assetIds, setAssetIds] = useState<number[]>([]);
  return (
    <PrintLabelsModal assetIds={assetIds} onClose={onClose}>
      <AssetMultiSelect label={t('chooseAssets')} value={assetIds} onChange={setAssetIds} allowAddNew={false} testId="portal-label-assets" />
    </PrintLabelsModal>
  );
}
