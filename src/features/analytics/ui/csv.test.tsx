import { describe, expect, it } from 'vitest';
import { neutralise } from '../../../shared/csv';
import { toCsv } from './csv';

describe('analytics CSV export', () => {
  it('neutralises cells a spreadsheet would run as formulas, keeps numbers and plain text', () => {
    expect(['=SUM(A1)', '+1', '-cmd', '@x', '\tx', 'Pump P-1', -5, 0].map(neutralise)).toEqual(["'=SUM(A1)", "'+1", "'-cmd", "'@x", "'\tx", 'Pump P-1', -5, 0]);
    expect(toCsv([{ asset: '=HYPERLINK("x")', hours: 2.5 }])).toBe('asset,hours\r\n"\'=HYPERLINK(""x"")",2.5');
  });
});
