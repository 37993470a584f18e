import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format';

export interface ChartPart {
  name: string;
  value: number;
}

/** "People by role: Admin 1, Manager 2 and Worker 5", in the reader's language. */
export function chartSummary(label: string, parts: ChartPart[], language: string): string {
  const list = new Intl.ListFormat(language, { type: 'conjunction' }).format(parts.map((p) => `${p.name} ${formatNumber(p.value)}`));
  return `${label}: ${list}`;
}

/**
 * A chart as one image for assistive technology, named by its figures. Recharts gives each pie sector role="img"
 * without a name (axe svg-img-alt); the drawing is hidden from the accessibility tree and the name says it all.
 * Nothing inside may take the focus (a pie: `pieProps={{ rootTabIndex: -1 }}`).
 */
export function ChartImage({ label, parts, children }: { label: string; parts: ChartPart[]; children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <div role="img" aria-label={chartSummary(label, parts, i18n.language)} data-testid="chart-image">
      <div aria-hidden>{children}</div>
    </div>
  );
}
