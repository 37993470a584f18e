import { useState } from 'react';
import { Alert, Badge, Button, Code, CopyButton, Group, Image, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../web/lib/api';
import { confirmAction, notifyError, notifySuccess } from '../../../web/components';
import { formatDateTime } from '../../../web/lib/format';
import type { TwoFactorEnrolment, TwoFactorStatus } from '../../two-factor/two-factor.schema';
import { RegenerateRecoveryCodes } from './regenerate-recovery-codes';

const STATUS_KEY = ['two-factor', 'status'];
const SESSIONS_KEY = ['auth', 'sessions'];

interface SessionRow {
  id: number;
  browser: string;
  os: string;
  ipAddress: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** The profile's Security tab (decision 076): two-factor sign-in and the signed-in devices. */
export function SecurityTab() {
  return (
    <Stack gap="lg">
      <TwoFactorSection />
      <SessionsSection />
    </Stack>
  );
}

/** The ten recovery codes, shown once, with copy and download. */
export function RecoveryCodesBlock({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="xs">
      <Text fw={600}>{t('security.recoveryTitle')}</Text>
      <Text size="sm" c="dimmed">
        {t('security.recoveryHint')}
      </Text>
      <Code block dir="ltr" data-testid="recovery-codes">
        {text}
      </Code>
      <Group gap="xs">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? t('security.copied') : t('security.copy')}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="default" onClick={download}>
          {t('security.download')}
        </Button>
      </Group>
    </Stack>
  );
}

function TwoFactorSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: () => api.get<TwoFactorStatus>('/two-factor/get-status') });
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: STATUS_KEY });

  const start = async () => {
    setBusy(true);
    try {
      setEnrolment(await api.post<TwoFactorEnrolment>('/two-factor/start-enrolment'));
      setCode('');
      setCodeError(null);
    } catch (err) {
      notifyError(errorMessage(err, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  };
  const confirm = async () => {
    setBusy(true);
    try {
      const res = await api.post<{ recoveryCodes: string[] }>('/two-factor/confirm-enrolment', { code });
      setCodes(res.recoveryCodes);
      setEnrolment(null);
      await refresh();
    } catch (err) {
      setCodeError(errorMessage(err, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  };
  const disable = async () => {
    setBusy(true);
    try {
      const res = await api.post<{ message: string }>('/two-factor/disable', { password, code });
      notifySuccess(res.message);
      setDisabling(false);
      setPassword('');
      setCode('');
      await refresh();
    } catch (err) {
      setCodeError(errorMessage(err, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  };

  const s = status.data;
  return (
    <Paper withBorder p="md" data-testid="two-factor-section">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={5}>{t('security.codeTitle')}</Title>
          {s && (
            <Badge color={s.enabled ? 'green' : 'gray'} variant="light" data-testid="two-factor-status">
              {s.enabled ? t('security.on') : t('security.off')}
            </Badge>
          )}
        </Group>
        {s?.required && !s.enabled && <Alert color="yellow">{t('security.requiredNote')}</Alert>}
        {codes && (
          <>
            <RecoveryCodesBlock codes={codes} />
            <Group justify="flex-end">
              <Button onClick={() => setCodes(null)} data-testid="recovery-codes-done">
                {t('security.done')}
              </Button>
            </Group>
          </>
        )}
        {!codes && s && !s.enabled && !enrolment && (
          <Group>
            <Button onClick={() => void start()} loading={busy} data-testid="two-factor-enable">
              {t('security.enable')}
            </Button>
          </Group>
        )}
        {enrolment && (
          <Stack gap="xs">
            <Text size="sm">{t('security.scan')}</Text>
            <Image src={enrolment.qrCode} alt="QR" w={180} h={180} />
            <Text size="sm">
              {t('security.manualKey')}:{' '}
              <Code dir="ltr" data-testid="two-factor-secret">
                {enrolment.secret}
              </Code>
            </Text>
            <TextInput
              label={t('security.code')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              error={codeError}
              data-testid="two-factor-code"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEnrolment(null)}>
                {t('actions.cancel')}
              </Button>
              <Button onClick={() => void confirm()} loading={busy} data-testid="two-factor-confirm">
                {t('security.confirm')}
              </Button>
            </Group>
          </Stack>
        )}
        {!codes && s?.enabled && (
          <>
            <Text size="sm" c="dimmed" data-testid="recovery-codes-left">
              {t('security.codesLeft', { left: s.recoveryCodesLeft })}
            </Text>
            {!disabling && (
              <RegenerateRecoveryCodes
                onCodes={(fresh) => {
                  setCodes(fresh);
                  void refresh();
                }}
              />
            )}
            {s.required ? (
              <Text size="sm">{t('security.requiredNote')}</Text>
            ) : disabling ? (
              <Stack gap="xs">
                <PasswordInput
                  label={t('security.password')}
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  autoComplete="current-password"
                />
                <TextInput
                  label={t('security.codeOrRecovery')}
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                  error={codeError}
                  autoComplete="one-time-code"
                />
                <Group justify="flex-end">
                  <Button variant="default" onClick={() => setDisabling(false)}>
                    {t('actions.cancel')}
                  </Button>
                  <Button color="red" onClick={() => void disable()} loading={busy} data-testid="two-factor-disable-confirm">
                    {t('security.disable')}
                  </Button>
                </Group>
              </Stack>
            ) : (
              <Group>
                <Button
                  variant="light"
                  color="red"
                  onClick={() => {
                    setDisabling(true);
                    setCodeError(null);
                  }}
                  data-testid="two-factor-disable"
                >
                  {t('security.disableTitle')}
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function SessionsSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => api.get<{ sessions: SessionRow[] }>('/auth/list-sessions') });
  const end = async (row: SessionRow) => {
    if (!(await confirmAction({ message: t('security.endSessionConfirm'), confirmLabel: t('security.endSession') }))) return;
    try {
      const res = await api.del<{ message: string; sessions: SessionRow[] }>(`/auth/delete-session/${row.id}`);
      queryClient.setQueryData(SESSIONS_KEY, { sessions: res.sessions });
      notifySuccess(res.message);
    } catch (err) {
      notifyError(errorMessage(err, t('errors.generic')));
    }
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={5}>{t('security.sessionsTitle')}</Title>
        <Text size="sm" c="dimmed">
          {t('security.sessionsHint')}
        </Text>
        {(sessions.data?.sessions ?? []).map((row) => (
          <Group key={row.id} justify="space-between" wrap="nowrap" data-testid="session-row">
            <Stack gap={0}>
              <Group gap="xs">
                <Text fw={500} size="sm" dir="ltr">
                  {row.browser} · {row.os}
                </Text>
                {row.current && (
                  <Badge size="sm" variant="light" data-testid="session-current">
                    {t('security.thisDevice')}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {t('security.lastSeen', { date: formatDateTime(row.lastSeenAt) })} · {t('security.signedIn', { date: formatDateTime(row.createdAt) })}
                {row.ipAddress ? ` · ${t('security.from', { ip: row.ipAddress })}` : ''}
              </Text>
            </Stack>
            {!row.current && (
              <Button size="xs" variant="light" color="red" onClick={() => void end(row)} data-testid="session-end">
                {t('security.endSession')}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
