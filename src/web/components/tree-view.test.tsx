import { describe, expect, it } from 'vitest';
import { nestNodes } from './tree-view';

const nodes = [
  { id: 1, label: 'Plant', parentId: null },
  { id: 2, label: 'Line 1', parentId: 1 },
  { id: 3, label: 'Motor', parentId: 2 },
  { id: 4, label: 'Depot', parentId: null },
];

describe('tree view (locations, assets; decision 072)', () => {
  it('nests a flat list by parent', () => {
    expect(nestNodes(nodes).map((n) => [n.label, n.children?.map((c) => c.label)])).toEqual([
      ['Plant', ['Line 1']],
      ['Depot', undefined],
    ]);
  });
});
