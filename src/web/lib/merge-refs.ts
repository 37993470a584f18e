import type { Ref } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * floating-ui's `useMergeRefs(refs)` for Mantine's ScrollArea, on Mantine's own `useMergedRef` (vite.config.ts
 * points ScrollArea's import here): the shell and the lists need the ScrollArea, not floating-ui, which comes
 * with the menus and tooltips on the first interaction.
 */
export function useMergeRefs<T>(refs: (Ref<T> | undefined)[]) {
  return useMergedRef<T>(...refs);
}
