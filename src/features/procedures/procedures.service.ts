/*
 * Procedures' services, one file per operation (issue 40); this module keeps the exported names and registers the
 * activity entity. The catalogue: procedure-catalog; a procedure issued on a work order: procedure-issued; answers,
 * signatures and step images: procedure-answers; follow-ups, the printed order, the export: procedure-follow-up.
 */
import { procedures } from '../../server/db/schema';
import { registerActivityEntity } from '../activity/activity.service';
export { listProcedures, getProcedure, addProcedure, updateProcedure, deleteProcedure, stepColumns } from './procedure-catalog.service';
export {
  getWorkOrderProcedure,
  readWorkOrderProcedure,
  readWorkOrderProcedures,
  attachProcedure,
  attachProcedureToWorkOrder,
  detachProcedure,
} from './procedure-issued.service';
export {
  answerProcedureStep,
  signProcedureStep,
  answerStepAsContractor,
  checkImageStep,
  checkStepTakesImage,
  stepImageVersion,
  setStepImage,
  setStepImageAsContractor,
  type IssuedStepRow,
} from './procedure-answers.service';
export { createFollowUp, printWorkOrder, exportProcedureStepsPage } from './procedure-follow-up.service';

registerActivityEntity('procedure', procedures, 'Procedure');
