import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

export interface SignatureLabels {
  title: string;
  hint: string;
  clear: string;
  save: string;
}

/**
 * Draws a signature with a finger, pen or mouse on a canvas and hands it back as a PNG (the phone's required
 * signature step, issue 46). The whole screen on a phone, so a finger has room; the page does not scroll under it.
 */
export function SignaturePad({
  opened,
  onClose,
  onSave,
  labels,
  testId = 'signature',
}: {
  opened: boolean;
  onClose(): void;
  onSave(png: Blob): void;
  labels: SignatureLabels;
  testId?: string;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const drawing = useRef(false);
  const [empty, setEmpty] = useState(true);
  const prepare = (node: HTMLCanvasElement | null) => {
    canvas.current = node;
    const ctx = node?.getContext('2d');
    if (!node || !ctx) return;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, node.width, node.height);
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#111';
  };
  const point = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return {
      x: ((e.clientX - rect.left) * e.currentTarget.width) / (rect.width || 1),
      y: ((e.clientY - rect.top) * e.currentTarget.height) / (rect.height || 1),
    };
  };
  const down = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const ctx = e.currentTarget.getContext('2d');
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drawing.current = true;
    setEmpty(false);
    if (!ctx) return;
    const p = point(e);
    ctx.beginPath();
    ctx.moveTo(p.x, p.y);
    ctx.lineTo(p.x + 0.1, p.y + 0.1);
    ctx.stroke();
  };
  const move = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = e.currentTarget.getContext('2d');
    const p = point(e);
    ctx?.lineTo(p.x, p.y);
    ctx?.stroke();
  };
  const up = () => {
    drawing.current = false;
  };
  const save = () => canvas.current?.toBlob((blob) => blob && onSave(blob), 'image/png');
  return (
    <Modal opened={opened} onClose={onClose} title={labels.title} centered fullScreen={!!phone} size="lg" onExitTransitionEnd={() => setEmpty(true)}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {labels.hint}
        </Text>
        <canvas
          ref={prepare}
          width={600}
          height={240}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerLeave={up}
          style={{
            width: '100%',
            height: 'auto',
            aspectRatio: '5 / 2',
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 4,
            touchAction: 'none',
            background: '#fff',
          }}
          aria-label={labels.hint}
          data-testid={`${testId}-canvas`}
        />
        <Group justify="flex-end">
          <Button
            variant="default"
            size="lg"
            onClick={() => {
              prepare(canvas.current);
              setEmpty(true);
            }}
          >
            {labels.clear}
          </Button>
          <Button size="lg" onClick={save} disabled={empty} data-testid={`${testId}-save`}>
            {labels.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
