// The list-screen kit. See README.md in this folder for the API and an example page.
export { ListScreen, ListTextFilter, ListMultiFilter, ListMineFilter, type ListScreenProps } from './list-screen';
export { DataTable, TablePager, ColumnChooser, useColumnChoice, type Column, type DataTableProps, type TablePagination } from './data-table';
export { ClientDataTable, type ClientDataTableProps } from './client-data-table';
export { ExportButton } from './export-button';
export { ImportButton } from './import-button';
export { ChipsMultiSelect, type ChipOption } from './chips-multi-select';
export { RecordDrawer, countFieldErrors, formDrawerProps, type DrawerTab, type RecordDrawerProps } from './record-drawer';
export { NoteLogs, activityQueryKey } from './note-logs';
export { useListQueryState, type ListQueryState, type FilterSpec, type FilterValues, type PageSize } from './use-list-query-state';
export { drawerListProps, useServerList, type ServerListOptions } from './use-server-list';
export { useDebouncedValue } from './use-debounced-value';
export { notifySuccess, notifyError } from './notify';
export { confirmAction, confirmDelete, type ConfirmOptions } from './confirm';
export {
  AsyncSelect,
  AsyncMultiSelect,
  ADD_NEW_VALUE,
  rememberOption,
  type SelectOption,
  type AsyncSelectProps,
  type AsyncMultiSelectProps,
} from './async-select';
export { RichTextField, type RichTextFieldProps } from './rich-text-field';
export { formatMoney, formatMinorMoney, useMoney } from './money';
export { EmptyState } from './empty-state';
export { isBlankHtml } from './blank-html';
export { adminLoadTexts, isForbidden, LoadState, QueryLoadState } from './load-state';
export { tablePagination } from './table-pagination';
export {
  LineItemsTable,
  DocumentSummary,
  liveTotals,
  toEngineLine,
  type ItemSelectProps,
  type LineItemValue,
  type LineItemsTableProps,
  type TaxOption,
} from './line-items';
export { DialogActions } from './dialog-actions';
export { ServerListScreen, type RecordListConfig, type ServerListScreenProps, type ServerListLike } from './server-list-screen';
export {
  RecordDrawerFooter,
  removeWithConfirmation,
  recordMessages,
  runWithToasts,
  useListRecordActions,
  useSaveHandler,
  type ListData,
  type ListRecordOptions,
  type RecordMessages,
  type RowDrawerProps,
} from './record-actions';
export { StaleEditAlert, isStaleEdit, useStaleEdit, useVersionedRecord } from './stale-edit';
export { RecordCreateModal, areaCreateModal, type RecordCreateModalProps } from './record-create-modal';
export { createRecordMultiSelect, createRecordSelect, type RecordMultiSelectProps, type RecordSelectConfig, type RecordSelectProps } from './record-select';
export { useDrawerRecord, useFormFromRecord, useNotifiedQuery, useRecordForm, type ListDrawerProps } from './use-drawer-record';
export { drawerTexts, recordPaths, useRecordDrawer } from './use-record-drawer';
export { AttachmentInput, AttachmentList, ImageUploadButton, InitialAvatar, DOCUMENT_ACCEPT, IMAGE_ACCEPT, uploadDocuments } from './attachments';
export { optionOf, textValues } from './form-values';
export { DayField, formatDay, parseDay, pickerDay } from './day-field';
export { DateTimeField, type DateTimeFieldProps } from './date-time-field';
export { StatCard } from './stat-card';
export { ChartImage, chartSummary, type ChartPart } from './chart-image';
export { DetailTable, type DetailColumn } from './detail-table';
export { TableHead } from './table-head';
export { AsyncSelectField } from './async-select-field';
export { AsyncSelectFilter } from './async-select-filter';
export { FormField } from './form-field';
export { FormTextarea } from './form-textarea';
export { FormTextInput } from './form-text-input';
export { HeaderStatusSelect } from './header-status-select';
export { openById, useOpenRecord } from './use-open-record';
export { historyFieldLabel, historyValue, registerHistoryLabels, type HistoryLabels } from './history-labels';
export { TreeView, nestNodes, type FlatNode } from './tree-view';
export { SecretShownModal } from './secret-shown-modal';
export { RowRecordDrawer } from './row-record-drawer';
export { badgeColumn } from './badge-column';
export { useBusyAction } from './use-busy-action';
export { showRefusal, usePlainFormActions } from './use-plain-form-actions';
export { PlainDrawerFooter } from './plain-drawer-footer';
export { AdminListPage } from './admin-list-page';
export { listSelectProps, type ListSelectBase } from './list-select-props';
export { useVersionedListRecord } from './versioned-list-record';
