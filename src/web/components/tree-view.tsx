import { useMemo } from 'react';
import { Group, Text, Tree, UnstyledButton, useTree, type TreeNodeData } from '@mantine/core';

/** A node of a flat list that names its parent (locations, assets; decision 072). */
export interface FlatNode {
  id: number;
  label: string;
  parentId: number | null;
  /** A short note after the label (a code, a count). */
  note?: string;
}

/** The nesting of a flat list: children under their parent, a node whose parent is absent at the top. */
export function nestNodes(nodes: FlatNode[]): TreeNodeData[] {
  const byParent = new Map<number | null, FlatNode[]>();
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) {
    const key = n.parentId !== null && ids.has(n.parentId) ? n.parentId : null;
    byParent.set(key, [...(byParent.get(key) ?? []), n]);
  }
  const build = (parent: number | null, seen: Set<number>): TreeNodeData[] =>
    (byParent.get(parent) ?? [])
      .filter((n) => !seen.has(n.id))
      .map((n) => {
        const children = build(n.id, new Set([...seen, n.id]));
        return { value: String(n.id), label: n.label, nodeProps: { note: n.note }, ...(children.length ? { children } : {}) };
      });
  return build(null, new Set());
}

/**
 * A tree of records: expand and collapse with the mouse or the keyboard (Mantine's Tree: arrow keys move and
 * open or close, Enter opens the record), each label a button that opens the record.
 */
export function TreeView({ nodes, onOpen, testId, label }: { nodes: FlatNode[]; onOpen(id: number): void; testId: string; label: string }) {
  const data = useMemo(() => nestNodes(nodes), [nodes]);
  const tree = useTree();
  return (
    <Tree
      aria-label={label}
      data-testid={testId}
      data={data}
      tree={tree}
      levelOffset="lg"
      expandOnClick={false}
      // Enter opens the focused node: Mantine puts its key handler (arrows) on the treeitem <li>, which holds the
      // focus; a handler on the rendered row never saw the key, so it is caught here as it bubbles up.
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        const item = (e.target as HTMLElement).closest<HTMLElement>('[role=treeitem]');
        if (item?.dataset.value) {
          e.preventDefault();
          onOpen(Number(item.dataset.value));
        }
      }}
      renderNode={({ node, expanded, hasChildren, elementProps }) => (
        <Group gap={6} wrap="nowrap" {...elementProps}>
          {hasChildren ? (
            <UnstyledButton
              tabIndex={-1}
              aria-label={expanded ? 'collapse' : 'expand'}
              data-testid={`${testId}-toggle-${node.value}`}
              onClick={(e) => {
                e.stopPropagation();
                tree.toggleExpanded(node.value);
              }}
            >
              {expanded ? '▾' : '▸'}
            </UnstyledButton>
          ) : (
            <Text span c="dimmed" aria-hidden>
              •
            </Text>
          )}
          <UnstyledButton tabIndex={-1} data-testid={`${testId}-node-${node.value}`} onClick={() => onOpen(Number(node.value))}>
            {node.label}
          </UnstyledButton>
          {node.nodeProps?.note ? (
            <Text span size="xs" c="dimmed">
              {String(node.nodeProps.note)}
            </Text>
          ) : null}
        </Group>
      )}
    />
  );
}
