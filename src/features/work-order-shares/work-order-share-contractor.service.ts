import type { ReadTx, Tx } from '../../server/db/client';
import { workOrderShareMessages } from '../../server/db/schema';
import type { Mailer } from '../../server/mailer';
import { toMinor } from '../../shared/money';
import { recordActivity } from '../activity/activity.service';
import { checkCurrencyDecimals, moneySettings } from '../organization/organization.service';
import { addExternalLabor, addExternalPart, deleteExternalLine } from '../work-orders/work-orders.service';
import { answerStepAsContractor, checkStepTakesImage, setStepImageAsContractor } from '../procedures/procedures.service';
import type { contractorLaborSchema, contractorPartSchema } from './work-order-shares.schema';
import type { z } from 'zod';
import { WORK_ORDER } from './work-order-share-list.service';
import { shareFor, markActive, touch, contractorStep } from './work-order-share-access.service';

/** A contractor's write through the share's link: the token (and the link's key), what they send, the mailer for the manager's notice. */
type ContractorWrite<I> = (tx: Tx, orgId: number, token: string, key: string | undefined, input: I, mailer: Mailer) => Promise<{ message: string }>;

/** POST add-shared-comment: the contractor's comment, in the thread and in the work order's notes. */
export const addContractorComment: ContractorWrite<string> = async (tx, orgId, token, key, body, mailer) => {
  const share = await shareFor(tx, orgId, token, key, 'canComment');
  await tx.insert(workOrderShareMessages).values({ orgId, shareId: share.id, userId: null, authorName: share.contractorName, body });
  await recordActivity(tx, orgId, { entityType: WORK_ORDER, entityId: share.workOrderId, actorName: share.contractorName, action: 'note', note: body });
  await touch(tx, orgId, share, 'commented', mailer);
  return { message: 'Comment added' };
};

/** Checks, before any upload is read, that the share may add files. */
export async function checkContractorUpload(tx: ReadTx, orgId: number, token: string, key: string | undefined) {
  await shareFor(tx, orgId, token, key, 'canComment');
}

/** POST upload-shared-files: files the contractor added (already checked and stored), in the thread and the history. */
export const addContractorFiles: ContractorWrite<{ url: string; name: string }[]> = async (tx, orgId, token, key, files, mailer) => {
  const share = await shareFor(tx, orgId, token, key, 'canComment');
  await tx
    .insert(workOrderShareMessages)
    .values(files.map((f) => ({ orgId, shareId: share.id, userId: null, authorName: share.contractorName, fileUrl: f.url, fileName: f.name })));
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: share.workOrderId,
    actorName: share.contractorName,
    action: 'attachment',
    changes: { files: { from: null, to: files.map((f) => f.name).join(', ') } },
  });
  await touch(tx, orgId, share, 'added files', mailer);
  return { message: 'Files uploaded' };
};

/** The share a contractor logs on (`canLog`) and the currency's digits, `amount` checked against them. */
async function loggingShare(tx: Tx, orgId: number, token: string, key: string | undefined, amount: number, field: string) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  const money = await moneySettings(tx, orgId);
  checkCurrencyDecimals(amount, money, field);
  return { share, digits: money.digits };
}

/** POST add-shared-labor: the contractor's time at their own rate (counted in the work order's cost, external). */
export const addContractorLabor: ContractorWrite<z.output<typeof contractorLaborSchema>> = async (tx, orgId, token, key, input, mailer) => {
  const { share, digits } = await loggingShare(tx, orgId, token, key, input.hourlyRate, 'hourlyRate');
  await addExternalLabor(
    tx,
    orgId,
    share.workOrderId,
    { shareId: share.id, name: share.contractorName, since: share.createdAt },
    { startTime: input.startTime, endTime: input.endTime, rateMinor: toMinor(input.hourlyRate, digits) },
  );
  await touch(tx, orgId, share, 'logged time', mailer);
  return { message: 'Time logged' };
};

/** POST add-shared-part: a part the contractor used, at their own unit price. */
export const addContractorPart: ContractorWrite<z.output<typeof contractorPartSchema>> = async (tx, orgId, token, key, input, mailer) => {
  const { share, digits } = await loggingShare(tx, orgId, token, key, input.unitPrice, 'unitPrice');
  await addExternalPart(
    tx,
    orgId,
    share.workOrderId,
    { shareId: share.id, name: share.contractorName },
    { name: input.name, quantity: input.quantity, unitPriceMinor: toMinor(input.unitPrice, digits) },
  );
  await touch(tx, orgId, share, 'reported a part', mailer);
  return { message: 'Part added' };
};

/** POST mark-shared-done: the contractor's work is done, for the manager to accept or send back. */
export const markContractorDone: ContractorWrite<string | undefined> = async (tx, orgId, token, key, comment, mailer) => {
  const share = await shareFor(tx, orgId, token, key, 'canComplete');
  if (share.state === 'done') return { message: 'Already marked as done' };
  if (comment) await tx.insert(workOrderShareMessages).values({ orgId, shareId: share.id, userId: null, authorName: share.contractorName, body: comment });
  await recordActivity(tx, orgId, {
    entityType: WORK_ORDER,
    entityId: share.workOrderId,
    actorName: share.contractorName,
    action: 'updated',
    changes: { contractorWork: { from: share.state, to: 'done for review' } },
    ...(comment ? { note: comment } : {}),
  });
  await touch(tx, orgId, share, 'marked the work as done for review', mailer, 'done');
  return { message: 'Marked as done' };
};

/** POST answer-shared-step: the contractor fills a step of the work order's procedure (a right of `canLog`: reporting the work); the history line reaches the bell. */
export async function answerContractorStep(
  tx: Tx,
  orgId: number,
  token: string,
  key: string | undefined,
  input: { stepId: number; value: unknown; answeredAt?: string | null },
  sign: (url: string) => string,
) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await answerStepAsContractor(tx, orgId, share.workOrderId, share.contractorName, input, (step) => contractorStep(step, sign));
  await markActive(tx, orgId, share);
  return { message: 'Answer saved' };
}

/** Before an image is read: the share may fill the procedure, and the step is a photo or signature step of its work order. */
export async function checkContractorStepImage(tx: ReadTx, orgId: number, token: string, key: string | undefined, stepId: number) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await checkStepTakesImage(tx, orgId, share.workOrderId, stepId);
}

/**
 * POST add-shared-step-image/{stepId}: the stored image (photo, drawn signature) answers the step, under the
 * contractor's name; made from the step's `answeredAt` as the page showed it (answered since: 409 with the step now).
 */
export async function setContractorStepImage(
  tx: Tx,
  orgId: number,
  token: string,
  key: string | undefined,
  stepId: number,
  url: string,
  answeredAt: string | null | undefined,
  sign: (url: string) => string,
) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await setStepImageAsContractor(tx, orgId, share.workOrderId, share.contractorName, stepId, url, answeredAt, (step) => contractorStep(step, sign));
  await markActive(tx, orgId, share);
  return { message: 'Image saved' };
}

/**
 * DELETE delete-shared-labor/{id} and delete-shared-part/{id}: the contractor removes a line they reported (only
 * their share's own, while the link works and the work is not accepted; any other id is a 404).
 */
export async function deleteContractorLine(tx: Tx, orgId: number, token: string, key: string | undefined, kind: 'labor' | 'part', id: number) {
  const share = await shareFor(tx, orgId, token, key, 'canLog');
  await deleteExternalLine(tx, orgId, share.workOrderId, { shareId: share.id, name: share.contractorName }, kind, id);
  await markActive(tx, orgId, share);
  return { message: kind === 'labor' ? 'Time deleted' : 'Part deleted' };
}
