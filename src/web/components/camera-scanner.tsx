import { useEffect, useRef } from 'react';

/**
 * The label scanner of the request portal (decision 039), also the technician's app's (decision 041: a part's
 * label, an asset's label): one component of the kit.
 */

/** The token of one of our label URLs (…/r/<token>), or null for any other text. */
export const tokenOf = (text: string) => /\/r\/([A-Za-z0-9_-]{16,64})\/?$/.exec(text.trim())?.[1] ?? null;

/** The one-dimensional codes of product labels (a part's SKU), beside QR codes: what `products` adds. */
const PRODUCT_FORMATS = ['code_128', 'code_39', 'ean_13', 'ean_8', 'upc_a', 'upc_e'];

/**
 * The camera: the browser's BarcodeDetector where it exists, zxing otherwise (loaded only then). Calls `onText`
 * with each code read until stopped. QR codes (our labels); with `products`, the barcodes of product labels too.
 * The camera starts once per mount (the callbacks are read from a ref, so a render of the page does not restart
 * it) and its stream is stopped when the scanner leaves, even when it leaves before the camera answered.
 */
export function CameraScanner({ onText, onUnavailable, products = false }: { onText(text: string): void; onUnavailable(): void; products?: boolean }) {
  const video = useRef<HTMLVideoElement>(null);
  const handlers = useRef({ onText, onUnavailable });
  useEffect(() => {
    handlers.current = { onText, onUnavailable };
  });
  useEffect(() => {
    const element = video.current;
    let stopped = false;
    let stream: MediaStream | null = null;
    let stopZxing: (() => void) | undefined;
    const release = () => {
      stream?.getTracks().forEach((track) => track.stop());
      stream = null;
      stopZxing?.();
      stopZxing = undefined;
      if (element) element.srcObject = null;
    };
    void (async () => {
      try {
        if (!element) return;
        const Detector = (
          window as unknown as { BarcodeDetector?: new (o: { formats: string[] }) => { detect(v: HTMLVideoElement): Promise<{ rawValue: string }[]> } }
        ).BarcodeDetector;
        if (Detector) {
          stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
          // Closed while the camera was being asked: its stream stops now.
          if (stopped) {
            release();
            return;
          }
          element.srcObject = stream;
          await element.play();
          const wanted = products ? ['qr_code', ...PRODUCT_FORMATS] : ['qr_code'];
          const supported = await (Detector as unknown as { getSupportedFormats?: () => Promise<string[]> }).getSupportedFormats?.().catch(() => null);
          const detector = new Detector({ formats: supported ? wanted.filter((f) => supported.includes(f)) : ['qr_code'] });
          while (!stopped) {
            const found = await detector.detect(element).catch(() => []);
            if (stopped) break;
            if (found[0]) handlers.current.onText(found[0].rawValue);
            await new Promise((r) => setTimeout(r, 250));
          }
        } else {
          const { BrowserMultiFormatReader, BrowserQRCodeReader } = await import('@zxing/browser');
          if (stopped) return;
          const reader = products ? new BrowserMultiFormatReader() : new BrowserQRCodeReader();
          const controls = await reader.decodeFromVideoDevice(undefined, element, (result) => result && handlers.current.onText(result.getText()));
          stopZxing = () => controls.stop();
          if (stopped) release();
        }
      } catch {
        if (!stopped) handlers.current.onUnavailable();
        release();
      }
    })();
    return () => {
      stopped = true;
      release();
    };
  }, [products]);
  return <video ref={video} muted playsInline style={{ width: '100%', maxWidth: 420, borderRadius: 8 }} data-testid="scan-video" />;
}
