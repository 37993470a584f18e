import { useEffect } from 'react';
import { Button, Group, Loader, Modal, Stack, Switch, Text } from '@mantine/core';
import { useForm, Controller } from 'react-hook-form';
import { zodResolver } from '../../../web/lib/form-resolver';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { notifyError, notifySuccess } from '../../../web/components/notify';
import { NOTIFICATION_TOPICS, notificationSettingsSchema, type NotificationSettings, type NotificationTopic } from '../activity.schema';

const TOPICS = Object.keys(NOTIFICATION_TOPICS) as NotificationTopic[];

/** The bell's settings, kept on the server per user (GET/PUT /api/activities/notification-settings). */
export function NotificationSettingsDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['activities', 'notification-settings'],
    queryFn: ({ signal }) => api.get<{ notificationSettings: NotificationSettings }>('/activities/notification-settings', { signal }),
    enabled: opened,
  });
  const form = useForm<NotificationSettings>({ resolver: zodResolver(notificationSettingsSchema) });
  const settings = query.data?.notificationSettings;
  useEffect(() => {
    if (settings) form.reset(settings);
  }, [settings, form]);
  useEffect(() => {
    if (query.isError) notifyError(t('shell.notificationSettingsLoadFailed'));
  }, [query.isError, t]);
  const save = useMutation({
    mutationFn: (values: NotificationSettings) => api.put<{ notificationSettings: NotificationSettings }>('/activities/notification-settings', values),
    onSuccess: (data) => {
      queryClient.setQueryData(['activities', 'notification-settings'], data);
      void queryClient.invalidateQueries({ queryKey: ['activities', 'recent'] });
      notifySuccess(t('shell.notificationSettingsSaved'));
      onClose();
    },
    onError: () => notifyError(t('shell.notificationSettingsFailed')),
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('shell.notificationSettings')} centered>
      {!settings ? (
        <Group justify="center" p="lg">
          {query.isError ? (
            <Text c="dimmed">{t('shell.notificationSettingsLoadFailed')}</Text>
          ) : (
            <Loader size="sm" aria-label={t('shell.notificationSettings')} />
          )}
        </Group>
      ) : (
        <form onSubmit={form.handleSubmit((values) => save.mutate(values))} data-testid="notification-settings-form">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('shell.notificationSettingsIntro')}
            </Text>
            {[...TOPICS, 'ownActions' as const].map((name) => (
              <Controller
                key={name}
                control={form.control}
                name={name}
                render={({ field }) => (
                  <Switch
                    checked={field.value ?? false}
                    onChange={(e) => field.onChange(e.currentTarget.checked)}
                    label={name === 'ownActions' ? t('shell.ownActions') : t(`shell.topics.${name}`)}
                    data-testid={`notify-${name}`}
                  />
                )}
              />
            ))}
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={onClose}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t('actions.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
