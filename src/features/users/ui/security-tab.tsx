import { Alert, Badge, Button, Code, CopyButton, Group, Image, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorMessage, saveBlob } from '../../../web/lib/api';
import { confirmAction, DialogActions, notifyError, notifySuccess } from '../../../web/components';
import { formatDateTime } from '../../../web/lib/format';
import type { TwoFactorEnrolment, TwoFactorStatus } from '../../two-factor/two-factor.schema';
import { useTwoFactor, type TwoFactorState } from './use-two-factor';
import { RegenerateRecoveryCodes } from './regenerate-recovery-codes';

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
  const download = () => saveBlob(new Blob([`${text}\n`], { type: 'text/plain' }), 'recovery-codes.txt');
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
  const tf = useTwoFactor();
  const { status: s, codes, enrolment } = tf;
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
              <Button onClick={() => tf.setCodes(null)} data-testid="recovery-codes-done">
                {t('security.done')}
              </Button>
            </Group>
          </>
        )}
        {!codes && s && !s.enabled && !enrolment && (
          <Group>
            <Button onClick={() => void tf.start()} loading={tf.busy} data-testid="two-factor-enable">
              {t('security.enable')}
            </Button>
          </Group>
        )}
        {enrolment && <EnrolmentForm tf={tf} enrolment={enrolment} />}
        {!codes && s?.enabled && <EnabledTwoFactor tf={tf} status={s} />}
      </Stack>
    </Paper>
  );
}

/** The QR code, the manual key and the first code that confirms an enrolment. */
function EnrolmentForm({ tf, enrolment }: { tf: TwoFactorState; enrolment: TwoFactorEnrolment }) {
  const { t } = useTranslation();
  return (
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
        value={tf.code}
        onChange={(e) => tf.setCode(e.currentTarget.value)}
        inputMode="numeric"
        autoComplete="one-time-code"
        error={tf.codeError}
        data-testid="two-factor-code"
      />
      <DialogActions
        onCancel={() => tf.setEnrolment(null)}
        submitLabel={t('security.confirm')}
        onSubmit={() => void tf.confirm()}
        loading={tf.busy}
        testId="two-factor-confirm"
      />
    </Stack>
  );
}

/** Two-factor is on: the codes left, regenerating them and turning two-factor off (unless it is required). */
function EnabledTwoFactor({ tf, status: s }: { tf: TwoFactorState; status: TwoFactorStatus }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" c="dimmed" data-testid="recovery-codes-left">
        {t('security.codesLeft', { left: s.recoveryCodesLeft })}
      </Text>
      {!tf.disabling && (
        <RegenerateRecoveryCodes
          onCodes={(fresh) => {
            tf.setCodes(fresh);
            void tf.refresh();
          }}
        />
      )}
      {s.required ? (
        <Text size="sm">{t('security.requiredNote')}</Text>
      ) : tf.disabling ? (
        <DisableTwoFactorForm tf={tf} />
      ) : (
        <Group>
          <Button
            variant="light"
            color="red"
            onClick={() => {
              tf.setDisabling(true);
              tf.setCodeError(null);
            }}
            data-testid="two-factor-disable"
          >
            {t('security.disableTitle')}
          </Button>
        </Group>
      )}
    </>
  );
}

/** The password and a code (or a recovery code) that turn two-factor off. */
function DisableTwoFactorForm({ tf }: { tf: TwoFactorState }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <PasswordInput
        label={t('security.password')}
        value={tf.password}
        onChange={(e) => tf.setPassword(e.currentTarget.value)}
        autoComplete="current-password"
      />
      <TextInput
        label={t('security.codeOrRecovery')}
        value={tf.code}
        onChange={(e) => tf.setCode(e.currentTarget.value)}
        error={tf.codeError}
        autoComplete="one-time-code"
      />
      <DialogActions
        onCancel={() => tf.setDisabling(false)}
        submitLabel={t('security.disable')}
        onSubmit={() => void tf.disable()}
        loading={tf.busy}
        color="red"
        testId="two-factor-disable-confirm"
      />
    </Stack>
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
