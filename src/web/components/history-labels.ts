import type { TFunction } from 'i18next';
import { formatDateTime } from '../lib/format';

/**
 * How a record type's history names its fields and values: the feature's translation namespace, where a field
 * is `field.<name>` (or `col.<name>`), and for fields whose values are a vocabulary, the key under which their
 * labels live (`status` -> `status.<value>`). So history reads "Status: Open -> Closed", never
 * "status: assigned -> completed". A feature registers from its ui (labels file) at module top level.
 */
export interface HistoryLabels {
  namespace: string;
  /** field -> translation prefix of its values, e.g. { status: 'status', priority: 'priority' } */
  values?: Record<string, string>;
}
const registry = new Map<string, HistoryLabels>();

export function registerHistoryLabels(entityType: string, labels: HistoryLabels) {
  registry.set(entityType, labels);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const humanise = (field: string) =>
  field
    .replace(/Id$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase());

/** The label of a changed field of `entityType`, in the reader's language. */
export function historyFieldLabel(t: TFunction, entityType: string, field: string): string {
  const ns = registry.get(entityType)?.namespace;
  if (ns) {
    for (const key of [`field.${field}`, `col.${field}`, `field.${field.replace(/Id$/, '')}`, `col.${field.replace(/Id$/, '')}`]) {
      const label = t(key, { ns, defaultValue: '' });
      if (typeof label === 'string' && label) return label;
    }
  }
  return humanise(field);
}

/** A changed value as the reader knows it: a vocabulary's label, a date in their format, or the value. */
export function historyValue(t: TFunction, entityType: string, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const labels = registry.get(entityType);
  const prefix = labels?.values?.[field];
  if (prefix && typeof value === 'string') {
    const label = t(`${prefix}.${value}`, { ns: labels.namespace, defaultValue: '' });
    if (typeof label === 'string' && label) return label;
  }
  if (typeof value === 'boolean') return t(value ? 'notes.yes' : 'notes.no');
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return formatDateTime(value);
  if (Array.isArray(value)) return value.map((v) => historyValue(t, entityType, field, v)).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Who did a history line, as the notes and the bell say it: the user, "<name> (contractor)" (decision 040), or System. */
export function actorLabel(t: TFunction, line: { user: { firstName: string; lastName: string } | null; contractor?: string | null }): string {
  if (line.user) return `${line.user.firstName} ${line.user.lastName}`.trim();
  return line.contractor ? t('shares.asContractor', { ns: 'common', name: line.contractor }) : t('notes.system', { ns: 'common' });
}
