import { AsyncSelectFilter, type AsyncSelectProps } from '../../../web/components';

export const ASSET_OPTIONS_PATH = '/assets/get-assets-options';

/**
 * A list's asset filter: the asset picker's options (5 at a time) in `AsyncSelectFilter`, whose Select loads when
 * the user first acts, apart from the form's picker (asset-select.tsx; issue 46: weight).
 */
export function AssetFilter(props: Omit<AsyncSelectProps, 'path' | 'pageSize'>) {
  return <AsyncSelectFilter {...props} path={ASSET_OPTIONS_PATH} pageSize={5} />;
}
