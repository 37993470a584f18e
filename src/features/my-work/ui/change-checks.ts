import type { z } from 'zod';
import { noteInputSchema } from '../../activity/activity.schema';
import { addPartsSchema, laborInputSchema, workOrderStatusSchema } from '../../work-orders/work-orders.schema';
import { answerSchemaFor, answerStepSchema, type StepDto } from '../../procedures/procedures.schema';
import { IMAGE_RULES, IMAGE_TYPES } from '../../../shared/image-rules';

/**
 * Each queued change checked with the schema its route uses, before it is queued (decision 041): a change the
 * server would refuse is never kept on the phone to fail hours later; the technician sees the field's message
 * now. Loaded on demand (zod stays out of My work's first load) and fetched early by the page.
 */
export interface Problem {
  message: string;
  /** The field the message is about (the schema's path), '' for the whole change. */
  field: string;
}

function firstProblem(schema: z.ZodType, value: unknown): Problem | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const [issue] = result.error.issues;
  return { message: issue.message, field: issue.path.join('.') };
}

export const checkStatus = (body: unknown) => firstProblem(workOrderStatusSchema, body);
export const checkNote = (body: unknown) => firstProblem(noteInputSchema, body);
export const checkParts = (body: unknown) => firstProblem(addPartsSchema, body);
export const checkLabor = (body: unknown) => firstProblem(laborInputSchema, body);
/** The route's body, then the answer against the step's kind (the server's second check). */
export const checkAnswer = (step: Pick<StepDto, 'kind' | 'options'>, body: { stepId: number; value: unknown }) =>
  firstProblem(answerStepSchema, body) ?? firstProblem(answerSchemaFor(step), body.value);

/** A photo for the generic image rule: type and size, with the server's messages. */
export function checkPhoto(file: Blob): Problem | null {
  const rule = IMAGE_RULES.image;
  if (!IMAGE_TYPES.includes(file.type)) return { message: rule.typeMessage, field: 'image' };
  if (file.size > rule.maxBytes) return { message: rule.sizeMessage, field: 'image' };
  return null;
}
