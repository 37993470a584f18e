import { useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  RecordDrawer,
  RecordDrawerFooter,
  notifyError,
  notifySuccess,
  removeWithConfirmation,
  useDrawerRecord,
  useRecordForm,
  useSaveHandler,
  useStaleEdit,
  type ListData,
  type ListDrawerProps,
} from '../../../web/components';
import { api } from '../../../web/lib/api';
import { planInputSchema, type PlanDto } from '../pm-plans.schema';
import './labels';
import { toForm } from './plan-form';
import { History, SkipModal } from './plan-drawer-parts';
import { PlanScheduleTab, PlanWorkTab } from './plan-tabs';

/** The plan drawer: what work, for what, when; a live preview of the next 12 dates; pause, resume, skip; occurrences. */
export function PlanDrawer(props: ListDrawerProps) {
  const { t } = useTranslation('pmPlans');
  const queryClient = useQueryClient();
  const {
    record,
    loading,
    key: recordKey,
  } = useDrawerRecord<PlanDto>({
    queryKey: 'pm-plans',
    id: props.id,
    path: (id) => `/pm-plans/get-plan/${id}`,
    itemKey: 'plan',
    errorMessage: t('failedFetchOne'),
  });
  const form = useRecordForm(planInputSchema, record, toForm);
  const errors = form.formState.errors;
  const values = form.watch();
  const [skipping, setSkipping] = useState(false);
  const staleEdit = useStaleEdit(() => queryClient.refetchQueries({ queryKey: recordKey, exact: true }));

  const refresh = () => {
    props.invalidate();
    void queryClient.invalidateQueries({ queryKey: ['pm-plans'] });
  };

  const save = useSaveHandler({
    form,
    id: record?.id,
    onStale: staleEdit.onStale,
    messages: { added: t('added'), updated: t('updated'), addFailed: t('failedAdd'), updateFailed: t('failedUpdate') },
    update: async (id, parsed) => {
      const res = await api.put<{ plan: PlanDto }>(`/pm-plans/update-plan/${id}`, { ...(parsed as object), updatedAt: record?.updatedAt });
      queryClient.setQueryData(recordKey, { plan: res.plan });
      refresh();
    },
    add: async (parsed) => {
      const res = await api.post<ListData & { plan: PlanDto }>('/pm-plans/add-plan', parsed, { query: props.query as never });
      props.onList(res);
      props.onCreated(res.plan.id);
    },
  });

  const setPaused = async (paused: boolean) => {
    if (!record) return;
    try {
      const res = await api.put<{ plan: PlanDto }>(`/pm-plans/${paused ? 'pause' : 'resume'}/${record.id}`);
      queryClient.setQueryData(recordKey, { plan: res.plan });
      notifySuccess(paused ? t('pausedMessage') : t('resumedMessage'));
      refresh();
    } catch {
      notifyError(t('failedAction'));
    }
  };

  const remove = (id: number) =>
    removeWithConfirmation({
      confirm: t('deleteConfirm'),
      remove: () => api.del<ListData>(`/pm-plans/delete-plan/${id}`, { query: props.query as never }),
      success: t('deleted'),
      failure: t('failedDelete'),
      onRemoved: (list) => {
        props.onList(list);
        props.onClose();
      },
    });
  const tabs = [
    { value: 'plan', label: t('tabs.plan'), content: <PlanScheduleTab form={form} record={record} values={values} /> },
    { value: 'work', label: t('tabs.work'), content: <PlanWorkTab form={form} record={record} /> },
    ...(record ? [{ value: 'history', label: t('tabs.history'), content: <History planId={record.id} /> }] : []),
  ];

  return (
    <>
      <RecordDrawer
        opened
        alert={staleEdit.alert}
        onClose={props.onClose}
        title={record ? record.name : props.id === null ? t('newTitle') : ''}
        headerRight={
          record ? (
            <Group gap="xs">
              <Badge variant="light" color={record.paused ? 'gray' : 'green'} data-testid="pm-state">
                {record.paused ? t('paused') : t('active')}
              </Badge>
              <Button size="xs" variant="default" onClick={() => void setPaused(!record.paused)} data-testid="pm-pause">
                {record.paused ? t('resume') : t('pause')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setSkipping(true)} data-testid="pm-skip">
                {t('skip')}
              </Button>
            </Group>
          ) : null
        }
        loading={loading}
        errors={errors}
        onSubmit={save}
        activity={{ entityType: 'pm-plan', entityId: record?.id }}
        tabs={tabs}
        footer={
          <RecordDrawerFooter
            onDelete={record && (() => void remove(record.id))}
            deleteLabel={t('deleteButton')}
            saving={form.formState.isSubmitting}
            saveLabel={t('save')}
            deleteTestId="delete-button"
            saveTestId="save-button"
          />
        }
        testId="pm-plan-drawer"
      />
      {record && (
        <SkipModal
          planId={record.id}
          opened={skipping}
          onClose={() => setSkipping(false)}
          onDone={() => {
            void queryClient.refetchQueries({ queryKey: recordKey, exact: true });
            refresh();
          }}
        />
      )}
    </>
  );
}
