/*
 * Contractor links' services, one file per operation (issue 40); this module keeps the exported names. The team's
 * list and reads: work-order-share-list; create/revoke/extend/accept/send back: work-order-share-manage; the
 * contractor's access (finding the link, the e-mailed code, the shared order): work-order-share-access; what the
 * contractor writes: work-order-share-contractor.
 */
export { CODE_MAIL_LIMITS, CODE_TRY_LIMIT, listShares, getShare, type ShareMail } from './work-order-share-list.service';
export { createShare, revokeShare, extendShare, acceptShare, sendBackShare, addTeamComment } from './work-order-share-manage.service';
export {
  findShare,
  getSharedWorkOrder,
  liveShareId,
  countCodeMail,
  countCodeTry,
  clearCodeTries,
  sendShareCode,
  confirmShareCode,
  type LiveShare,
} from './work-order-share-access.service';
export {
  addContractorComment,
  checkContractorUpload,
  addContractorFiles,
  addContractorLabor,
  addContractorPart,
  markContractorDone,
  answerContractorStep,
  checkContractorStepImage,
  setContractorStepImage,
  deleteContractorLine,
} from './work-order-share-contractor.service';
