/*
 * The insights screen's figures (decisions 038, 063), one file per family; the SQL they share (days in a time zone,
 * the filters, the labour and parts rows) is analytics-sql.ts.
 */
export { orgTimeZone } from '../organization/organization.service';
export { laborRows, partRows } from './analytics-sql';
export { backlogFigures, throughputFigures, plannedShareFigures } from './analytics-orders.service';
export { mttrFigures, mtbfFigures } from './analytics-repairs.service';
export { downtimeFigures, costFigures, quotedVsActualFigures } from './analytics-costs.service';
export { complianceFigures, myWorkFigures } from './analytics-compliance.service';
