import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render';
import { nestNodes, TreeView } from './tree-view';

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

  it('expands and collapses a node with the mouse', async () => {
    const onOpen = vi.fn();
    renderWithProviders(<TreeView nodes={nodes} onOpen={onOpen} testId="t" label="Things" />);
    expect(screen.queryByText('Line 1')).toBeNull();
    await userEvent.click(screen.getByTestId('t-toggle-1'));
    expect(await screen.findByText('Line 1')).toBeTruthy();
    await userEvent.click(screen.getByTestId('t-toggle-2'));
    expect(await screen.findByText('Motor')).toBeTruthy();
    expect(onOpen).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId('t-toggle-1'));
    expect(screen.queryByText('Line 1')).toBeNull();
    await userEvent.click(screen.getByTestId('t-node-4'));
    expect(onOpen).toHaveBeenCalledWith(4);
  });
});

function Rerendering({ onOpen }: { onOpen(id: number): void }) {
  const [n, setN] = useState(0);
  return (
    <div onClickCapture={() => setN(n + 1)}>
      <TreeView nodes={nodes.map((x) => ({ ...x }))} onOpen={onOpen} testId="t" label={`Things ${n}`} />
    </div>
  );
}

describe('tree view in a re-rendering page', () => {
  it('expands with the mouse though the nodes are a new array each render', async () => {
    renderWithProviders(<Rerendering onOpen={() => undefined} />);
    await userEvent.click(screen.getByTestId('t-toggle-1'));
    expect(await screen.findByText('Line 1')).toBeTruthy();
  });
  it('keyboard: arrow right expands, Enter opens', async () => {
    const onOpen = vi.fn();
    renderWithProviders(<TreeView nodes={nodes} onOpen={onOpen} testId="t" label="Things" />);
    const first = screen.getAllByRole('treeitem')[0]!;
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowRight', code: 'ArrowRight' });
    expect(await screen.findByText('Line 1')).toBeTruthy();
    fireEvent.keyDown(first, { key: 'Enter', code: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(1);
  });
});
