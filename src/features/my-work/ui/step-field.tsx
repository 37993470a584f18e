import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Checkbox, Group, Image, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { IssuedStepDto, WorkOrderProcedureDto } from '../../procedures/procedures.schema';
import { SignaturePad } from '../../../web/components/signature-pad';
import { SignOffStep } from '../../../web/components/sign-off-step';
import { myWorkDb, type CachedWorkOrder } from './my-work-db';
import { queueAnswer, queuePhoto } from './my-work-sync';
import type { OutboxItem } from './outbox';
import { TOUCH } from './sync-indicator';
import { big, useQueued } from './screen-kit';

export function PhotoInput({ onFile, label, testId, error }: { onFile: (file: File) => void; label: string; testId: string; error?: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        data-testid={`${testId}-input`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) onFile(file);
          e.currentTarget.value = '';
        }}
      />
      <Button {...big} variant="light" leftSection={<IconCamera />} onClick={() => input.current?.click()} data-testid={testId}>
        {label}
      </Button>
      {error && (
        <Text size="sm" c="red" role="alert" data-testid={`${testId}-error`}>
          {error}
        </Text>
      )}
    </>
  );
}

/** A blob's object URL for as long as it is shown. */
function useObjectUrl(blob: Blob | undefined) {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : undefined), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

export function PendingPhoto({ item, testId = 'photo-pending' }: { item: OutboxItem; testId?: string }) {
  const url = useObjectUrl(item.file);
  return url ? <Image src={url} alt="" h={120} w="auto" fit="contain" radius="sm" data-testid={testId} /> : null;
}

/**
 * A sign-off step signed on the phone (issue 44, decision 084): online only, the password re-checked and a meaning
 * chosen, through the same component and route as the work order drawer. The signed procedure replaces the device copy.
 */
function SignOffField({ order, step, label }: { order: CachedWorkOrder; step: IssuedStepDto; label: React.ReactNode }) {
  const onSigned = (procedure: WorkOrderProcedureDto | null) =>
    void myWorkDb()
      .workOrders.where('id')
      .equals(order.id)
      .modify((c) => void (c.procedure = procedure));
  return (
    <Stack gap={4}>
      {label}
      <SignOffStep workOrderId={order.id} step={step} testId={`step-${step.position}`} onSigned={onSigned} />
    </Stack>
  );
}

export function StepField({ order, step, pendingPhoto }: { order: CachedWorkOrder; step: IssuedStepDto; pendingPhoto?: OutboxItem }) {
  const { t } = useTranslation('myWork');
  const queued = useQueued();
  const answer = (value: unknown, shown: string) =>
    void queued.run(() => queueAnswer(order.id, step, value, t('procedure.answered', { label: step.label, value: shown })));
  const refusal = queued.error && (
    <Text size="sm" c="red" role="alert" data-testid={`step-${step.position}-error`}>
      {queued.error}
    </Text>
  );
  const testId = `step-${step.position}`;
  const label = (
    <Text fw={500}>
      {step.label}
      {step.required && (
        <Text span c="red">
          {' '}
          *
        </Text>
      )}
      {step.unit ? ` (${step.unit})` : ''}
    </Text>
  );
  switch (step.kind) {
    case 'sign-off':
      return <SignOffField order={order} step={step} label={label} />;
    case 'heading':
      return (
        <Title order={4} size="h6" mt="xs">
          {step.label}
        </Title>
      );
    case 'checkbox':
      return (
        <Checkbox
          size="lg"
          label={step.label}
          checked={step.value === true}
          onChange={(e) => answer(e.currentTarget.checked, e.currentTarget.checked ? t('procedure.done') : '—')}
          error={queued.error}
          data-testid={testId}
          styles={{ body: { minHeight: TOUCH, alignItems: 'center' } }}
        />
      );
    case 'pass-fail':
      return (
        <Stack gap={4}>
          {label}
          <Group grow gap="xs">
            {(['pass', 'fail', 'flag'] as const).map((v) => (
              <Button
                key={v}
                {...big}
                variant={step.value === v ? 'filled' : 'default'}
                color={v === 'pass' ? 'green' : v === 'fail' ? 'red' : 'yellow'}
                onClick={() => answer(v, t(`procedure.${v}`))}
                data-testid={`${testId}-${v}`}
              >
                {t(`procedure.${v}`)}
              </Button>
            ))}
          </Group>
          {refusal}
        </Stack>
      );
    case 'choice':
      return (
        <Stack gap={4}>
          {label}
          <Stack gap="xs">
            {step.options.map((o) => (
              <Button key={o} {...big} variant={step.value === o ? 'filled' : 'default'} onClick={() => answer(o, o)} data-testid={`${testId}-option`}>
                {o}
              </Button>
            ))}
          </Stack>
          {refusal}
        </Stack>
      );
    case 'number':
    case 'text':
      return <TypedAnswerField step={step} label={label} error={queued.error} answer={answer} />;
    case 'photo':
      return (
        <Stack gap={4}>
          {label}
          <SavedImage step={step} pendingPhoto={pendingPhoto} alt="" h={120} testId="photo-saved" />
          <PhotoInput
            testId={testId}
            error={queued.error}
            label={pendingPhoto || step.value ? t('procedure.retake') : t('procedure.takePhoto')}
            onFile={(file) => void queued.run(() => queuePhoto(order.id, step, file, t('procedure.photo', { label: step.label })))}
          />
        </Stack>
      );
    case 'signature':
      return <SignatureField order={order} step={step} label={label} pendingPhoto={pendingPhoto} queued={queued} />;
  }
}

/** The photo or signature waiting in the outbox, else the one saved, else nothing. */
function SavedImage(props: { step: IssuedStepDto; pendingPhoto?: OutboxItem; alt: string; h: number; bg?: string; testId: string }) {
  const { step, pendingPhoto } = props;
  if (pendingPhoto) return <PendingPhoto item={pendingPhoto} />;
  if (typeof step.value !== 'string') return null;
  return <Image src={step.value} alt={props.alt} h={props.h} w="auto" fit="contain" bg={props.bg} radius="sm" data-testid={props.testId} />;
}

/** A number or text step: typed into a draft, saved (through the outbox) when it differs from the answer. */
function TypedAnswerField(props: { step: IssuedStepDto; label: React.ReactNode; error: string | null; answer(value: unknown, shown: string): void }) {
  const { step, error } = props;
  const { t } = useTranslation('myWork');
  const saved = step.value === null || step.value === undefined ? '' : String(step.value);
  const [draft, setDraft] = useState<string>(saved);
  const testId = `step-${step.position}`;
  const changed = draft !== saved;
  const save = () => {
    if (!changed) return;
    const value = draft.trim() === '' ? null : step.kind === 'number' ? Number(draft) : draft;
    props.answer(value, draft || '—');
  };
  return (
    <Stack gap={4}>
      {props.label}
      <Group gap="xs" wrap="nowrap" align="flex-end">
        {step.kind === 'number' ? (
          <NumberInput
            size="lg"
            style={{ flex: 1 }}
            value={draft}
            onChange={(v) => setDraft(String(v))}
            inputMode="decimal"
            error={error}
            data-testid={testId}
          />
        ) : (
          <TextInput size="lg" style={{ flex: 1 }} value={draft} onChange={(e) => setDraft(e.currentTarget.value)} error={error} data-testid={testId} />
        )}
        <Button {...big} disabled={!changed} onClick={save} data-testid={`${testId}-save`}>
          {t('procedure.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** A signature step, signed here with a finger (issue 46): the PNG goes through the outbox as a step image, as a photo does. */
function SignatureField(props: {
  order: CachedWorkOrder;
  step: IssuedStepDto;
  label: React.ReactNode;
  pendingPhoto?: OutboxItem;
  queued: ReturnType<typeof useQueued>;
}) {
  const { order, step, pendingPhoto, queued } = props;
  const { t } = useTranslation('myWork');
  const [signing, setSigning] = useState(false);
  return (
    <Stack gap={4}>
      {props.label}
      <SavedImage step={step} pendingPhoto={pendingPhoto} alt={t('procedure.signed')} h={80} bg="white" testId="signature-saved" />
      <Button {...big} variant="light" onClick={() => setSigning(true)} data-testid={`step-${step.position}-sign`}>
        {pendingPhoto || step.value ? t('procedure.signAgain') : t('procedure.sign')}
      </Button>
      {queued.error && (
        <Text size="sm" c="red">
          {queued.error}
        </Text>
      )}
      <SignaturePad
        opened={signing}
        onClose={() => setSigning(false)}
        labels={{ title: t('procedure.signTitle'), hint: t('procedure.signHint'), clear: t('procedure.signClear'), save: t('procedure.signSave') }}
        onSave={(png) => {
          setSigning(false);
          void queued.run(() => queuePhoto(order.id, step, png, t('procedure.signature', { label: step.label })));
        }}
      />
    </Stack>
  );
}
