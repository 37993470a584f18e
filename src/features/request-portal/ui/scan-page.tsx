import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../../web/lib/api';
import { formatDateTime } from '../../../web/lib/format';
import { registerTranslations } from '../../../web/i18n';
import { CameraScanner, tokenOf } from '../../../web/components/camera-scanner';

registerTranslations('portalScan', {
  en: {
    title: 'Scan an asset label',
    camera: 'Scan with the camera',
    stop: 'Stop',
    noCamera: 'No camera here: type the asset number instead.',
    number: 'Asset number',
    open: 'Open',
    notFound: 'No asset with this number or code',
    openWork: 'Open work',
    history: 'History',
    requests: 'Open requests from the portal',
    none: 'Nothing',
    report: 'Report a problem',
    loading: 'Loading…',
  },
  ar: {
    title: 'مسح ملصق أصل',
    camera: 'المسح بالكاميرا',
    stop: 'إيقاف',
    noCamera: 'لا توجد كاميرا: اكتب رقم الأصل بدلًا من ذلك.',
    number: 'رقم الأصل',
    open: 'فتح',
    notFound: 'لا يوجد أصل بهذا الرقم أو الرمز',
    openWork: 'الأعمال المفتوحة',
    history: 'السجل',
    requests: 'طلبات البوابة المفتوحة',
    none: 'لا شيء',
    report: 'الإبلاغ عن مشكلة',
    loading: 'جارٍ التحميل…',
  },
});

interface Summary {
  asset: { id: number; name: string; number: string | null; status: string };
  openWork: { id: number; title: string; status: string; createdAt: string }[];
  history: { id: number; title: string; status: string; createdAt: string }[];
  requests: { id: number; number: string; description: string; status: string }[];
}

function AssetLanding({ summary }: { summary: Summary }) {
  const { t } = useTranslation('portalScan');
  const list = (rows: Summary['openWork']) =>
    rows.length === 0 ? (
      <Text c="dimmed" size="sm">
        {t('none')}
      </Text>
    ) : (
      rows.map((o) => (
        <Group key={o.id} justify="space-between" wrap="nowrap">
          <Anchor component={Link} to={`/dashboard/work-orders?open=${o.id}`}>
            <bdi>WO-{String(o.id).padStart(4, '0')}</bdi> <bdi>{o.title}</bdi>
          </Anchor>
          <Badge variant="light">{o.status}</Badge>
        </Group>
      ))
    );
  return (
    <Stack gap="md" data-testid="scan-asset">
      <Group justify="space-between">
        <div>
          <Title order={3}>{summary.asset.name}</Title>
          {summary.asset.number && <Text c="dimmed">{summary.asset.number}</Text>}
        </div>
        <Button component={Link} to="/dashboard/work-orders?open=new" data-testid="scan-report">
          {t('report')}
        </Button>
      </Group>
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t('openWork')}
        </Text>
        {list(summary.openWork)}
      </Card>
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t('requests')}
        </Text>
        {summary.requests.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('none')}
          </Text>
        ) : (
          summary.requests.map((r) => (
            <Anchor key={r.id} component={Link} to={`/dashboard/requests?open=${r.id}`} display="block">
              {r.number} {r.description.slice(0, 80)}
            </Anchor>
          ))
        )}
      </Card>
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t('history')}
        </Text>
        {list(summary.history)}
        {summary.history.length > 0 && (
          <Text size="xs" c="dimmed">
            {formatDateTime(summary.history[0].createdAt)}
          </Text>
        )}
      </Card>
    </Stack>
  );
}

/** /dashboard/scan[/<token>]: a label's code (or a typed asset number) opens the asset: its open work, history, "report a problem". */
export default function ScanPage() {
  const { t } = useTranslation('portalScan');
  const { token } = useParams();
  const navigate = useNavigate();
  const [assetId, setAssetId] = useState<number | null>(null);
  const [camera, setCamera] = useState(false);
  const [noCamera, setNoCamera] = useState(false);
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string>();
  const resolved = useQuery({
    queryKey: ['portal', 'code', token],
    enabled: !!token,
    queryFn: ({ signal }) => api.get<{ target: { kind: string; id: number } }>(`/portal/resolve-code/${token}`, { signal }),
  });
  useEffect(() => {
    const target = resolved.data?.target;
    if (!target) return;
    if (target.kind === 'asset') setAssetId(target.id);
    // A work station's label opens that station in its list.
    else void navigate(`/dashboard/work-stations?selected-workstation=${target.id}&dialog=open`, { replace: true });
  }, [resolved.data, navigate]);
  const summary = useQuery({
    queryKey: ['portal', 'asset', assetId],
    enabled: !!assetId,
    queryFn: ({ signal }) => api.get<Summary>(`/portal/asset-summary/${assetId}`, { signal }),
  });

  const find = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await api.get<{ asset: { id: number } }>('/portal/find-asset', { query: { number } });
      setError(undefined);
      setAssetId(res.asset.id);
    } catch {
      setError(t('notFound'));
    }
  };

  return (
    <Stack gap="md" maw={720}>
      <Title order={2}>{t('title')}</Title>
      {token && resolved.isError && <Alert color="red">{t('notFound')}</Alert>}
      <Group align="flex-end">
        <form onSubmit={(e) => void find(e)} style={{ display: 'flex', gap: 8, alignItems: 'flex-end' }}>
          <TextInput
            label={t('number')}
            value={number}
            onChange={(e) => setNumber(e.currentTarget.value)}
            error={error}
            maxLength={100}
            data-testid="scan-number"
          />
          <Button type="submit" variant="default" disabled={!number.trim()} data-testid="scan-find">
            {t('open')}
          </Button>
        </form>
        {!noCamera && (
          <Button variant="light" onClick={() => setCamera((c) => !c)} data-testid="scan-camera">
            {camera ? t('stop') : t('camera')}
          </Button>
        )}
      </Group>
      {noCamera && <Text c="dimmed">{t('noCamera')}</Text>}
      {camera && !noCamera && (
        <CameraScanner
          onText={(text) => {
            const code = tokenOf(text);
            if (code) {
              setCamera(false);
              void navigate(`/dashboard/scan/${code}`);
            }
          }}
          onUnavailable={() => setNoCamera(true)}
        />
      )}
      {(resolved.isLoading || summary.isLoading) && <Loader size="sm" />}
      {summary.data && <AssetLanding summary={summary.data} />}
    </Stack>
  );
}
