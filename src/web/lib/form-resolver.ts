import { zodResolver as hookformZodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { translateMessage } from '../i18n/messages/translate-message';

/** Translates every `message` of a resolver's errors (nested fields, arrays of lines), leaving `ref` alone. */
function translateErrors(node: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(translateErrors);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'ref') out[key] = value;
    else if (key === 'message' && typeof value === 'string') out[key] = translateMessage(value);
    else out[key] = translateErrors(value);
  }
  return out;
}

/**
 * `zodResolver` of @hookform/resolvers whose field messages are shown in the reader's language: the schemas
 * hold the spec's English messages (the contract, shared with the API), the dictionary translates them
 * (decision 065). Same signature; forms import this one (lint).
 */
export const zodResolver: typeof hookformZodResolver = ((...args: Parameters<typeof hookformZodResolver>) => {
  const resolve = (hookformZodResolver as (...a: unknown[]) => Resolver<FieldValues>)(...args);
  const translated: Resolver<FieldValues> = async (values, context, options) => {
    const result = await resolve(values, context, options);
    if (Object.keys(result.errors).length === 0) return result;
    return { values: {}, errors: translateErrors(result.errors) as typeof result.errors };
  };
  return translated;
}) as typeof hookformZodResolver;
