import { useEffect, useState } from 'react';
import { ActionIcon, Button, Checkbox, Group, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useFieldArray, useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useTranslation } from 'react-i18next';
import {
  ClientDataTable,
  ListScreen,
  RecordDrawer,
  activityQueryKey,
  formDrawerProps,
  confirmDelete,
  notifyError,
  notifySuccess,
  type Column,
  FormTextInput,
} from '../../../web/components';
import { ApiError, api, applyApiErrors } from '../../../web/lib/api';
import { useAppData, useIsManager } from '../../../web/lib/app-data';
import { registerTranslations } from '../../../web/i18n';
import { teamInputSchema, type TeamDto, type TeamInput } from '../teams.schema';

registerTranslations('teams', {
  en: {
    title: 'Teams',
    add: 'Add Team',
    find: 'Find Team',
    new: 'New Team',
    overview: 'Overview',
    name: 'Name',
    members: 'Members',
    addMember: 'Add Member',
    worker: 'Worker',
    selectWorker: 'Select a worker',
    teamLead: 'Team Lead',
    defaultAssignee: 'Default Assignee',
    removeMember: 'Remove member',
  },
  ar: {
    title: 'الفرق',
    add: 'إضافة فريق',
    find: 'البحث عن فريق',
    new: 'فريق جديد',
    overview: 'نظرة عامة',
    name: 'الاسم',
    members: 'الأعضاء',
    addMember: 'إضافة عضو',
    worker: 'العامل',
    selectWorker: 'اختر عاملاً',
    teamLead: 'قائد الفريق',
    defaultAssignee: 'المكلَّف الافتراضي',
    removeMember: 'إزالة العضو',
  },
});

const TEAMS_KEY = ['teams', 'all'] as const;

/** /dashboard/teams: client-side search and paging (default 25, remembered). */
export default function TeamsPage() {
  const { t } = useTranslation('teams');
  const isManager = useIsManager();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: TEAMS_KEY,
    queryFn: async ({ signal }) => (await api.get<{ teams: TeamDto[] }>('/teams/get-teams', { signal })).teams,
  });
  // once per failed load (the fetch inside is retried)
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) notifyError('Failed to fetch teams');
  }, [isError, errorUpdatedAt]);
  const [selected, setSelected] = useState<TeamDto | null | undefined>(undefined);
  const setList = (body: { teams?: TeamDto[] }) => {
    if (body?.teams) queryClient.setQueryData(TEAMS_KEY, body.teams);
    else void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
    // pickers elsewhere (work stations) keep their own copy
    void queryClient.invalidateQueries({ queryKey: ['teams', 'options'] });
  };
  const columns: Column<TeamDto>[] = [
    { key: 'name', header: t('name'), hideable: false },
    { key: 'memberCount', header: t('members'), render: (r) => String(r.memberCount) },
  ];
  return (
    <ListScreen
      title={t('title')}
      addLabel={isManager ? t('add') : undefined}
      onAdd={() => setSelected(null)}
      onRefresh={() => void query.refetch()}
      refreshing={query.isFetching}
    >
      <ClientDataTable
        tableId="teams"
        exportList="teams"
        columns={columns}
        rows={query.data ?? []}
        rowKey={(r) => r.id}
        loading={query.isFetching}
        failed={query.isError}
        onRetry={() => void query.refetch()}
        onRowClick={setSelected}
        searchPlaceholder={t('find')}
        searchText={(r) => r.name}
      />
      {selected !== undefined && (
        <TeamDrawer
          key={selected?.id ?? 'new'}
          team={selected}
          readOnly={!isManager}
          onClose={() => setSelected(undefined)}
          onList={setList}
          onSaved={() => void queryClient.invalidateQueries({ queryKey: ['teams'] })}
        />
      )}
    </ListScreen>
  );
}

const failure = (err: unknown, fallback: string) => (err instanceof ApiError && err.status === 409 && err.message ? err.message : fallback);

type Flag = 'isTeamLead' | 'isDefaultAssignee';

/** One member: the worker (one not chosen on another row), Team Lead, Default Assignee, Remove. */
function MemberRow({
  form,
  index,
  chosen,
  readOnly,
  tickOnly,
  onRemove,
}: {
  form: UseFormReturn<TeamInput, any, any>;
  index: number;
  chosen: TeamInput['members'];
  readOnly: boolean;
  tickOnly(index: number, flag: Flag, checked: boolean): void;
  onRemove(): void;
}) {
  const { t } = useTranslation('teams');
  const workers = useAppData().data?.workers ?? [];
  const errors = form.formState.errors;
  const workerName = (w: (typeof workers)[number]) => `${w.firstName} ${w.lastName}`.trim() || w.email;
  const takenElsewhere = new Set(chosen.filter((_, i) => i !== index).map((m) => Number(m?.workerId)));
  // Team Lead and Default Assignee: a tick that only one member may hold (tickOnly clears the others')
  const flag = (name: Flag, label: string, testId: string) => (
    <Controller
      control={form.control}
      name={`members.${index}.${name}`}
      render={({ field: f }) => (
        <Checkbox
          mt={8}
          label={label}
          disabled={readOnly}
          checked={Boolean(f.value)}
          onChange={(e) => tickOnly(index, name, e.currentTarget.checked)}
          data-testid={`member-${testId}-${index}`}
        />
      )}
    />
  );
  return (
    <Group align="flex-start" wrap="wrap" gap="sm" data-testid={`member-row-${index}`}>
      <Controller
        control={form.control}
        name={`members.${index}.workerId`}
        render={({ field: f }) => (
          <Select
            style={{ flex: '1 1 220px' }}
            aria-label={t('worker')}
            placeholder={t('selectWorker')}
            searchable
            readOnly={readOnly}
            data={workers.filter((w) => !takenElsewhere.has(w.id)).map((w) => ({ value: String(w.id), label: workerName(w) }))}
            value={f.value ? String(f.value) : null}
            onChange={(v) => f.onChange(v ? Number(v) : 0)}
            onBlur={f.onBlur}
            error={errors.members?.[index]?.workerId?.message}
            data-testid={`member-worker-${index}`}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      />
      {flag('isTeamLead', t('teamLead'), 'lead')}
      {flag('isDefaultAssignee', t('defaultAssignee'), 'default')}
      {!readOnly && (
        <ActionIcon variant="subtle" color="red" mt={4} aria-label={t('removeMember')} onClick={onRemove} data-testid={`member-remove-${index}`}>
          <IconTrash size={16} />
        </ActionIcon>
      )}
    </Group>
  );
}

function TeamDrawer(props: { team: TeamDto | null; readOnly: boolean; onClose(): void; onList(body: { teams?: TeamDto[] }): void; onSaved(): void }) {
  const { t } = useTranslation('teams');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const { team, readOnly } = props;
  const form = useForm<TeamInput, any, any>({
    resolver: zodResolver(teamInputSchema),
    mode: 'onTouched',
    defaultValues: {
      name: team?.name ?? '',
      members: team?.members.map((m) => ({ workerId: m.workerId, isTeamLead: m.isTeamLead, isDefaultAssignee: m.isDefaultAssignee })) ?? [
        { workerId: 0, isTeamLead: false, isDefaultAssignee: false },
      ],
    },
  });
  const members = useFieldArray({ control: form.control, name: 'members' });
  const chosen = form.watch('members') ?? [];
  const errors = form.formState.errors;

  /** Ticking Team Lead (or Default Assignee) on one member clears it on the others. */
  const tickOnly = (index: number, flag: Flag, checked: boolean) => {
    chosen.forEach((_, i) => {
      if (i !== index && checked && form.getValues(`members.${i}.${flag}`)) form.setValue(`members.${i}.${flag}`, false, { shouldDirty: true });
    });
    form.setValue(`members.${index}.${flag}`, checked, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  };

  const save = form.handleSubmit(async (values) => {
    try {
      if (team) {
        await api.put(`/teams/update-team/${team.id}`, values);
        notifySuccess('Team updated successfully');
        props.onSaved();
        void queryClient.invalidateQueries({ queryKey: activityQueryKey('team', team.id) });
      } else {
        props.onList(await api.post('/teams/add-team', values));
        notifySuccess('Team added successfully');
      }
      props.onClose();
    } catch (err) {
      applyApiErrors(err, form.setError);
      notifyError(failure(err, team ? 'Failed to update team' : 'Failed to add team'));
    }
  });

  const remove = async () => {
    if (!team || !(await confirmDelete('Are you sure you want to delete this team?'))) return;
    try {
      props.onList(await api.del(`/teams/delete-team/${team.id}`));
      notifySuccess('Team deleted successfully');
      props.onClose();
    } catch (err) {
      notifyError(failure(err, 'Failed to delete team'));
    }
  };

  const membersError = (errors.members as { message?: string; root?: { message?: string } } | undefined)?.message ?? (errors.members as any)?.root?.message;

  const content = (
    <Stack>
      <FormTextInput form={form} name="name" label={t('name')} withAsterisk readOnly={readOnly} testId="field-name" />
      <Text fw={500} size="sm">
        {t('members')}
      </Text>
      {members.fields.map((field, index) => (
        <MemberRow key={field.id} form={form} index={index} chosen={chosen} readOnly={readOnly} tickOnly={tickOnly} onRemove={() => members.remove(index)} />
      ))}
      {membersError && (
        <Text c="red" size="sm" data-testid="members-error">
          {membersError}
        </Text>
      )}
      {!readOnly && (
        <Button
          variant="light"
          leftSection={<IconPlus size={14} />}
          w="fit-content"
          onClick={() => members.append({ workerId: 0, isTeamLead: false, isDefaultAssignee: false })}
          data-testid="add-member"
        >
          {t('addMember')}
        </Button>
      )}
    </Stack>
  );

  return (
    <RecordDrawer
      {...formDrawerProps(form, save, 'team', team?.id)}
      onClose={props.onClose}
      title={team ? team.name : t('new')}
      testId="team-drawer"
      tabs={[{ value: 'overview', label: t('overview'), content }]}
      footer={
        readOnly ? undefined : (
          <>
            {team && (
              <Button color="red" variant="light" onClick={remove} data-testid="delete-record">
                {tc('actions.delete')}
              </Button>
            )}
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="save-record">
              {tc('actions.save')}
            </Button>
          </>
        )
      }
    />
  );
}
