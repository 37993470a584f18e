/**
 * An image (a logo, a photo of an answer) fitted inside `width` × `height` as PNG, as PDFKit draws it; null when
 * sharp cannot read it (the PDF goes without it). sharp loads on the first call, not at start (decision 013).
 */
export async function pdfImage(bytes: Buffer, width: number, height: number): Promise<Buffer | null> {
  const { default: sharp } = await import('sharp');
  return sharp(bytes)
    .resize({ width, height, fit: 'inside' })
    .png()
    .toBuffer()
    .catch(() => null);
}
