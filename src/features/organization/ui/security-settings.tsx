import { useState } from 'react';
import { Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../web/lib/api';
import { notifySuccess, useBusyAction } from '../../../web/components';
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '../../two-factor/two-factor.schema';

const POLICY_KEY = ['two-factor', 'policy'];
const LABELS: Record<TwoFactorPolicy, string> = { off: 'security.policyOff', admins: 'security.policyAdmins', everyone: 'security.policyEveryone' };

/** The organisation settings' security section (decision 076): who must sign in with a second factor. Admins only. */
export function SecuritySettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const policy = useQuery({ queryKey: POLICY_KEY, queryFn: () => api.get<{ required: TwoFactorPolicy }>('/two-factor/get-policy') });
  const [choice, setChoice] = useState<TwoFactorPolicy | null>(null);
  const { busy, run, error } = useBusyAction();
  const value = choice ?? policy.data?.required ?? 'off';

  const save = () =>
    run(async () => {
      const res = await api.put<{ required: TwoFactorPolicy }>('/two-factor/update-policy', { required: value });
      queryClient.setQueryData(POLICY_KEY, res);
      setChoice(null);
      notifySuccess(t('security.policySaved'));
    }, t('errors.generic'));

  return (
    <Paper withBorder p="md" mt="md" data-testid="security-settings">
      <Stack gap="sm">
        <Title order={5}>{t('security.policyTitle')}</Title>
        <Select
          label={t('security.policyLabel')}
          data={TWO_FACTOR_POLICIES.map((p) => ({ value: p, label: t(LABELS[p]) }))}
          value={value}
          onChange={(v) => setChoice((v as TwoFactorPolicy | null) ?? 'off')}
          allowDeselect={false}
          error={error}
          comboboxProps={{ withinPortal: true }}
          data-testid="two-factor-policy"
        />
        <Text size="xs" c="dimmed">
          {t('security.policyHint')}
        </Text>
        <Group justify="flex-end">
          <Button
            onClick={() => void save()}
            loading={busy}
            disabled={choice === null || choice === policy.data?.required}
            data-testid="two-factor-policy-save"
          >
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
