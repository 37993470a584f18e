import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, loadLanguage } from '.';
// the feature catalogs that count something
import '../../features/meters/ui/meters-i18n';
import '../../features/request-portal/ui/labels';
import '../../features/work-orders/ui/procedure-labels';

const FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const COUNTS = [0, 1, 2, 3, 11, 100];

/** Every plural key of a language's catalogs: "ns:path.base" -> the forms it has. */
function pluralKeys(lang: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const m = /^(.*)_(zero|one|two|few|many|other)$/.exec(key);
      if (m && typeof value === 'string') {
        const base = `${path}${m[1]}`;
        found.set(base, (found.get(base) ?? new Set()).add(m[2]));
      } else walk(value, `${path}${key}.`);
    }
  };
  const data = i18n.store.data[lang] ?? {};
  for (const [ns, bundle] of Object.entries(data)) walk(bundle, `${ns}:`);
  return found;
}

describe('counts as Arabic has them (decision 065)', () => {
  beforeAll(async () => {
    await loadLanguage('ar');
  });

  it('every Arabic plural has its six forms', () => {
    const keys = pluralKeys('ar');
    expect(keys.size).toBeGreaterThan(5);
    const incomplete = [...keys].filter(([, forms]) => FORMS.some((f) => !forms.has(f))).map(([k, forms]) => `${k}: ${[...forms].join(',')}`);
    expect(incomplete).toEqual([]);
  });

  it('the list’s record count for 0, 1, 2, 3, 11 and 100', () => {
    const ar = i18n.getFixedT('ar');
    expect(COUNTS.map((count) => ar('table.totalRecords', { count }))).toEqual(['لا توجد سجلات', 'سجل واحد', 'سجلان', '3 سجلات', '11 سجلًا', '100 سجل']);
    expect(ar('table.totalRecords', { count: 165 })).toBe('165 سجلًا');
    const en = i18n.getFixedT('en');
    expect(COUNTS.map((count) => en('table.totalRecords', { count }))).toEqual([
      '0 records',
      '1 record',
      '2 records',
      '3 records',
      '11 records',
      '100 records',
    ]);
  });

  it('each counted text takes a different form for 0, 1, 2, 3 (few), 11 (many), 100 (other)', () => {
    const ar = i18n.getFixedT('ar');
    for (const key of [
      'table.totalRecords',
      'table.totalRows',
      'shell.newRequests',
      'meters:imported',
      'meters:chartLimited',
      'portal:newCount',
      'workOrderProcedure:requiredLeft',
      'workOrderProcedure:flagged',
    ]) {
      const texts = COUNTS.map((count) => ar(key, { count }));
      for (const text of texts) expect(text, key).not.toMatch(/_(zero|one|two|few|many|other)|^[\w.:]+$/);
      // few (3) and many (11) differ in Arabic's noun: the forms are really used
      expect(texts[3], key).not.toBe(texts[4].replace('11', '3'));
    }
  });
});
