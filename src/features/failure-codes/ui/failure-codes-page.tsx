import { useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Modal, NumberInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DialogActions, ExportButton, notifyError, notifySuccess, removeWithConfirmation, showRefusal } from '../../../web/components';
import { api, ApiError } from '../../../web/lib/api';
import { useIsManager } from '../../../web/lib/app-data';
import { AssetCategorySelect } from '../../master-data/ui/asset-category-select';
import type { FailureCodeDto, FailureCodeKind, FailureCodeSettings } from '../failure-codes.schema';
import { failureCodesKey, useFailureCodes, useFailureCodeSettings } from './failure-code-queries';
import './failure-codes-i18n';

type Editing = { kind: FailureCodeKind; parentId: number | null; code?: FailureCodeDto };

/**
 * /settings/failure-codes (decision 080): the organisation's problem > cause > remedy codes grouped by asset
 * category, the starter library in one click, and the two settings (codes required, repeat window).
 */
export default function FailureCodesPage() {
  const { t, i18n } = useTranslation('failureCodes');
  const isManager = useIsManager();
  const queryClient = useQueryClient();
  const codes = useFailureCodes();
  const [editing, setEditing] = useState<Editing | null>(null);
  const all = codes.data?.failureCodes ?? [];
  const refresh = () => void queryClient.invalidateQueries({ queryKey: failureCodesKey });

  const importStarter = async () => {
    try {
      const res = await api.post<{ added: number }>('/failure-codes/import-starter-library', { language: i18n.language === 'ar' ? 'ar' : 'en' });
      notifySuccess(t('imported', { count: res.added }));
      refresh();
      void queryClient.invalidateQueries({ queryKey: ['asset-categories'] });
    } catch (err) {
      notifyError(err instanceof ApiError ? err.message : t('importFailed'));
    }
  };
  const remove = (code: FailureCodeDto) =>
    removeWithConfirmation({
      confirm: t('confirmDelete'),
      remove: () => api.del(`/failure-codes/delete-failure-code/${code.id}`),
      success: t('deleted'),
      failure: t('deleteFailed'),
      onRemoved: refresh,
    });

  // Problems grouped by category: "all categories" first, then by the category's name.
  const problems = all.filter((c) => c.kind === 'problem');
  const groups = [...new Map(problems.map((p) => [p.assetCategoryId ?? 0, p.assetCategory ?? t('allCategories')])).entries()].sort(([a, an], [b, bn]) =>
    a === 0 ? -1 : b === 0 ? 1 : an.localeCompare(bn),
  );
  const children = (kind: FailureCodeKind, parentId: number) => all.filter((c) => c.kind === kind && c.parentId === parentId);
  const actions = (c: FailureCodeDto, addKind?: FailureCodeKind) =>
    isManager && (
      <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
        {addKind && (
          <ActionIcon
            variant="subtle"
            aria-label={t(addKind === 'cause' ? 'addCause' : 'addRemedy')}
            onClick={() => setEditing({ kind: addKind, parentId: c.id })}
            data-testid={`add-${addKind}-${c.id}`}
          >
            <IconPlus size={16} />
          </ActionIcon>
        )}
        <ActionIcon
          variant="subtle"
          aria-label={t('edit')}
          onClick={() => setEditing({ kind: c.kind, parentId: c.parentId, code: c })}
          data-testid={`edit-code-${c.id}`}
        >
          <IconPencil size={16} />
        </ActionIcon>
        <ActionIcon variant="subtle" color="red" aria-label={t('delete')} onClick={() => void remove(c)} data-testid={`delete-code-${c.id}`}>
          <IconTrash size={16} />
        </ActionIcon>
      </Group>
    );
  const line = (c: FailureCodeDto) => (
    // On a 390 px phone a long name wraps inside its line (the buttons keep their place), in English and Arabic.
    <Group gap="xs" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
      <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
        <bdi>{c.code}</bdi>
      </Badge>
      <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        <bdi>{c.name}</bdi>
      </Text>
    </Group>
  );

  // A code's line and buttons, then its causes (of a problem) or remedies (of a cause) one step in.
  const branch = (c: FailureCodeDto): ReactNode => {
    const childKind = c.kind === 'problem' ? 'cause' : c.kind === 'cause' ? 'remedy' : undefined;
    return (
      <>
        <Group justify="space-between" wrap="nowrap">
          {line(c)}
          {actions(c, childKind)}
        </Group>
        {childKind && (
          <Stack gap={2} component="ul" ps="lg" style={{ listStyle: 'none', margin: 0 }}>
            {children(childKind, c.id).map((child) => (
              <li key={child.id}>{branch(child)}</li>
            ))}
          </Stack>
        )}
      </>
    );
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('title')}</Title>
        {isManager && (
          <Group>
            <ExportButton list="failure-codes" query={{}} columns={[]} />
            <Button variant="default" onClick={() => void importStarter()} data-testid="import-starter">
              {t('importStarter')}
            </Button>
            <Button onClick={() => setEditing({ kind: 'problem', parentId: null })} data-testid="add-problem">
              {t('addProblem')}
            </Button>
          </Group>
        )}
      </Group>
      <Text c="dimmed" size="sm">
        {t('intro')}
      </Text>
      {isManager && <SettingsCard />}
      {codes.data && !problems.length && <Text c="dimmed">{t('empty')}</Text>}
      {groups.map(([categoryId, categoryName]) => (
        <Card key={categoryId} withBorder padding="sm" data-testid={`code-group-${categoryId}`}>
          <Title order={3} size="h5" mb="xs">
            <bdi>{categoryName}</bdi>
          </Title>
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {problems
              .filter((p) => (p.assetCategoryId ?? 0) === categoryId)
              .map((p) => (
                <li key={p.id} data-testid="problem-row">
                  {branch(p)}
                </li>
              ))}
          </Stack>
        </Card>
      ))}
      {editing && (
        <CodeModal
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
    </Stack>
  );
}

function CodeModal({ editing, onClose, onSaved }: { editing: Editing; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('failureCodes');
  const existing = editing.code;
  const [form, setForm] = useState({ code: existing?.code ?? '', name: existing?.name ?? '', assetCategoryId: existing?.assetCategoryId ?? null });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const kind = t(`kind.${editing.kind}`);
  const save = async () => {
    const body = { code: form.code, name: form.name, ...(editing.kind === 'problem' ? { assetCategoryId: form.assetCategoryId } : {}) };
    try {
      if (existing) await api.put(`/failure-codes/update-failure-code/${existing.id}`, body);
      else await api.post('/failure-codes/add-failure-code', { ...body, kind: editing.kind, ...(editing.parentId ? { parentId: editing.parentId } : {}) });
      notifySuccess(existing ? t('updated') : t('added'));
      onSaved();
    } catch (err) {
      showRefusal(err, setErrors, t('saveFailed'));
    }
  };
  return (
    <Modal opened onClose={onClose} title={existing ? t('editCode', { kind }) : t('newCode', { kind })} data-testid="code-modal">
      <Stack>
        {(['code', 'name'] as const).map((name) => (
          <TextInput
            key={name}
            label={t(name)}
            withAsterisk
            value={form[name]}
            onChange={(e) => setForm({ ...form, [name]: e.currentTarget.value })}
            error={errors[name]}
            data-testid={`code-${name}`}
          />
        ))}
        {editing.kind === 'problem' && (
          <AssetCategorySelect
            label={t('category')}
            value={form.assetCategoryId}
            onChange={(v) => setForm({ ...form, assetCategoryId: v })}
            initialLabel={existing?.assetCategory ?? null}
            error={errors.assetCategoryId}
            testId="code-category"
          />
        )}
        <DialogActions onCancel={onClose} submitLabel={t('save')} onSubmit={() => void save()} testId="save-code" />
      </Stack>
    </Modal>
  );
}

function SettingsCard() {
  const { t } = useTranslation('failureCodes');
  const queryClient = useQueryClient();
  const settings = useFailureCodeSettings();
  const [values, setValues] = useState<FailureCodeSettings | null>(null);
  const form = values ?? settings.data?.settings ?? { requireCodes: false, repeatDays: 30 };
  const save = async () => {
    try {
      await api.put('/failure-codes/update-failure-code-settings', form);
      notifySuccess(t('settingsSaved'));
      setValues(null);
      void queryClient.invalidateQueries({ queryKey: failureCodesKey });
    } catch (err) {
      notifyError(err instanceof ApiError ? err.message : t('settingsFailed'));
    }
  };
  return (
    <Card withBorder padding="sm">
      <Title order={3} size="h5" mb="xs">
        {t('settings')}
      </Title>
      <Group align="flex-end">
        <Switch
          label={t('requireCodes')}
          checked={form.requireCodes}
          onChange={(e) => setValues({ ...form, requireCodes: e.currentTarget.checked })}
          data-testid="require-codes"
        />
        <NumberInput
          label={t('repeatDays')}
          min={0}
          max={3650}
          w={260}
          maw="100%"
          value={form.repeatDays}
          onChange={(v) => setValues({ ...form, repeatDays: typeof v === 'number' ? v : Number(v) || 0 })}
          data-testid="repeat-days"
        />
        <Button variant="light" onClick={() => void save()} data-testid="save-settings">
          {t('saveSettings')}
        </Button>
      </Group>
    </Card>
  );
}
