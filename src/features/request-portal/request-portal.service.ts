/*
 * The request portal's services, one file per operation (issue 40); this module keeps the exported names. Settings
 * and QR codes: request-portal-codes; the public form and status page: request-portal-submit; the managers' inbox
 * (list, accept, decline, merge, reply): request-portal-inbox; labels and the asset summary: request-portal-labels.
 */
import { type PortalMail } from './request-portal.flow';
export { getPortalSettings, savePortalSettings, ensureCodes, resolveCode } from './request-portal-codes.service';
export { getPortalForm, checkSubmission, submitPortalRequest, getPortalStatus, checkComment, addPortalComment } from './request-portal-submit.service';
export {
  listPortalRequests,
  portalRequestOptions,
  countNewPortalRequests,
  getPortalRequest,
  requestPhotos,
  acceptPortalRequest,
  declinePortalRequest,
  mergePortalRequest,
  replyPortalRequest,
} from './request-portal-inbox.service';
export { labelData, assetSummary, findAssetByNumber } from './request-portal-labels.service';

export type { PortalMail };
