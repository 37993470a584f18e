import type { ExportList } from './data-transfer.schema';
import type { Exporter } from './export-kit';
import { WORK_EXPORTERS } from './export-lists-work';
import { RECORD_EXPORTERS } from './export-lists-records';
import { STOCK_EXPORTERS } from './export-lists-stock';

export type { Reader, Step, ColumnSpec } from './export-kit';

/** The lists that export, each through its own feature's filter (decision 042), one file per area: a list without an exporter fails the typecheck. */
export const EXPORTERS: Record<ExportList, Exporter> = { ...WORK_EXPORTERS, ...RECORD_EXPORTERS, ...STOCK_EXPORTERS };
