import { useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RecordDrawer, RecordDrawerFooter, drawerTexts, useRecordDrawer, type ListDrawerProps } from '../../../web/components';
import { api } from '../../../web/lib/api';
import { planInputSchema, type PlanDto } from '../pm-plans.schema';
import './labels';
import { toForm, type FormValues } from './plan-form';
import { History, SkipModal } from './plan-drawer-parts';
import { PlanScheduleTab, PlanWorkTab } from './plan-tabs';

/** The plan drawer: what work, for what, when; a live preview of the next 12 dates; pause, resume, skip; occurrences. */
export function PlanDrawer(props: ListDrawerProps) {
  const { t } = useTranslation('pmPlans');
  const drawer = useRecordDrawer<PlanDto, FormValues>(props, {
    area: 'pm-plans',
    noun: 'plan',
    itemKey: 'plan',
    entityType: 'pm-plan',
    schema: planInputSchema,
    toForm,
    stamp: (p) => ({ updatedAt: p?.updatedAt }),
    ...drawerTexts(t),
    title: (p) => p.name,
    guardDirty: false,
    testId: 'pm-plan-drawer',
  });
  const { record, form } = drawer;
  const values = form.watch();
  const [skipping, setSkipping] = useState(false);

  const setPaused = (paused: boolean) =>
    drawer.act(
      (id) => api.put<{ plan: PlanDto }>(`/pm-plans/${paused ? 'pause' : 'resume'}/${id}`),
      paused ? t('pausedMessage') : t('resumedMessage'),
      t('failedAction'),
      (res) => {
        drawer.setRecord(res.plan);
        drawer.refresh(res.plan.id);
      },
    );

  const tabs = [
    { value: 'plan', label: t('tabs.plan'), content: <PlanScheduleTab form={form} record={record} values={values} /> },
    { value: 'work', label: t('tabs.work'), content: <PlanWorkTab form={form} record={record} /> },
    ...(record ? [{ value: 'history', label: t('tabs.history'), content: <History planId={record.id} /> }] : []),
  ];

  return (
    <>
      <RecordDrawer
        {...drawer.drawerProps}
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
        tabs={tabs}
        footer={<RecordDrawerFooter {...drawer.footerProps} />}
      />
      {record && (
        <SkipModal
          planId={record.id}
          opened={skipping}
          onClose={() => setSkipping(false)}
          onDone={() => {
            void drawer.reload();
            drawer.refresh(record.id);
          }}
        />
      )}
    </>
  );
}
