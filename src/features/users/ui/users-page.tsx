import { useState } from 'react';
import { Avatar, Badge, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ListTextFilter,
  RecordDrawer,
  formDrawerProps,
  activityQueryKey,
  confirmDelete,
  notifyError,
  notifySuccess,
  ServerListScreen,
  useServerList,
  type Column,
} from '../../../web/components';
import { api, applyApiErrors, errorMessage } from '../../../web/lib/api';
import { useCurrentUser, useIsManager } from '../../../web/lib/app-data';
import type { UserDto } from '../users.schema';
import { InviteUserDialog } from './invite-user-dialog';
import { UserFields, useUserForm } from './user-form';
import { USERS_KEY, useRefreshUsers } from './use-users';
import { UserSecurityActions } from './user-security-actions';

export const fullName = (u: Pick<UserDto, 'firstName' | 'lastName' | 'email'>) => `${u.firstName} ${u.lastName}`.trim() || u.email;

/** /settings/users: the organisation's people (default 25 a page), invitations, edits. */
export default function UsersPage() {
  const { t } = useTranslation();
  const isManager = useIsManager();
  const list = useServerList<UserDto, { name: 'text' }>({
    queryKey: USERS_KEY,
    path: '/user/getCompanyUsers',
    listKey: 'users',
    filters: { name: 'text' },
    defaultPageSize: 25,
    errorMessage: 'Failed to fetch users',
  });
  const [inviteOpen, setInviteOpen] = useState(false);
  const [selected, setSelected] = useState<UserDto | null>(null);

  const columns: Column<UserDto>[] = [
    {
      key: 'name',
      header: t('users.columns.name'),
      hideable: false,
      render: (u) => (
        <Group gap="sm" wrap="nowrap">
          <Avatar src={u.profilePictureLow ?? undefined} radius="xl" size={32} alt={fullName(u)}>
            {fullName(u).slice(0, 1).toUpperCase()}
          </Avatar>
          <Text size="sm" fw={500}>
            {fullName(u)}
          </Text>
        </Group>
      ),
    },
    { key: 'email', header: t('auth.fields.email') },
    { key: 'role', header: t('users.fields.role'), render: (u) => t(`roles.${u.role}`) },
    { key: 'jobTitle', header: t('users.fields.jobTitle') },
    {
      key: 'inviteStatus',
      header: t('users.columns.status'),
      render: (u) =>
        u.inviteStatus === 'ACTIVE' ? (
          <Badge color="green" variant="light">
            {t('users.status.active')}
          </Badge>
        ) : (
          <Badge color="yellow" variant="light" data-testid="not-accepted">
            {t('users.status.pending')}
          </Badge>
        ),
    },
    { key: 'phoneNumber', header: t('users.fields.phoneNumber'), defaultHidden: true },
  ];

  return (
    <ServerListScreen
      list={list}
      // Add invites a person (the invitation dialog), a row opens that user's drawer
      records={{
        name: 'users',
        importable: true,
        open: (u) => (u ? setSelected(u) : setInviteOpen(true)),
        title: t('users.title'),
        addLabel: isManager ? t('users.add') : undefined,
      }}
      columns={columns}
      filters={<ListTextFilter state={list.state} name="name" placeholder={t('users.filter')} debounceMs={500} />}
    >
      <InviteUserDialog opened={inviteOpen} onClose={() => setInviteOpen(false)} />
      {selected && <UserDrawer user={selected} onClose={() => setSelected(null)} />}
    </ServerListScreen>
  );
}

/** The edit drawer of a user: role change and delete hidden on one's own row (and refused by the API). */
function UserDrawer({ user, onClose }: { user: UserDto; onClose(): void }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const isManager = useIsManager();
  const refresh = useRefreshUsers();
  const queryClient = useQueryClient();
  // a manager sets the related records (the API refuses them from anyone else)
  const form = useUserForm(user, { related: isManager });
  const isSelf = me?.id === user.id;
  const canEdit = isSelf || isManager;
  const canChangeRole = !isSelf && isManager && (user.role !== 'admin' || me?.role === 'admin');

  const save = form.handleSubmit(async (values) => {
    try {
      await api.put(`/user/updateUser/${user.id}`, values);
      notifySuccess('User updated successfully');
      await refresh();
      void queryClient.invalidateQueries({ queryKey: activityQueryKey('user', user.id) });
      onClose();
    } catch (err) {
      if (!applyApiErrors(err, form.setError)) notifyError(errorMessage(err, 'Failed to update user'));
      else notifyError('Failed to update user');
    }
  });

  const remove = async () => {
    if (!(await confirmDelete(t('users.deleteConfirm')))) return;
    try {
      await api.del(`/user/deleteUser/${user.id}`);
      notifySuccess('User deleted successfully');
      await refresh();
      onClose();
    } catch (err) {
      notifyError(errorMessage(err, 'Failed to delete user'));
    }
  };

  return (
    <RecordDrawer
      {...formDrawerProps(form, save, 'user', user.id)}
      onClose={onClose}
      title={fullName(user)}
      headerRight={
        user.inviteStatus === 'PENDING' ? (
          <Badge color="yellow" variant="light">
            {t('users.status.pending')}
          </Badge>
        ) : undefined
      }
      tabs={[
        {
          value: 'overview',
          label: t('drawer.overview'),
          content: (
            <>
              <Group mb="md">
                <Avatar src={user.profilePicture ?? undefined} size={72} radius="xl">
                  {fullName(user).slice(0, 1).toUpperCase()}
                </Avatar>
              </Group>
              <UserFields form={form} showRole={canChangeRole} allowAdmin={me?.role === 'admin'} readOnly={!canEdit} related={isManager ? user : undefined} />
            </>
          ),
        },
      ]}
      footer={
        <>
          {me?.role === 'admin' && !isSelf && user.inviteStatus === 'ACTIVE' && <UserSecurityActions user={user} />}
          {isManager && !isSelf && (
            <Button color="red" variant="light" onClick={() => void remove()} data-testid="user-delete">
              {t('users.delete')}
            </Button>
          )}
          {canEdit && (
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="user-save">
              {t('actions.save')}
            </Button>
          )}
        </>
      }
    />
  );
}
