import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { collectMessages } from '../../../server/test/collect-messages';
import { arMessages } from './ar-messages';
import { compileCatalog, translatorOf } from './compile-catalog';
import { installTranslator, translateMessage } from './translate-message';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const ARABIC = /[\u0600-\u06FF]/;

describe('every message a user can be shown has its Arabic (decision 065)', () => {
  const messages = collectMessages(root);

  it('finds the zod contracts’ and the server’s messages', () => {
    const texts = new Set(messages.map((m) => m.text));
    // one of each kind, so that a broken collector cannot pass by finding nothing
    for (const known of [
      'Invalid email or password',
      'Category added successfully',
      'Name must be at least 3 characters long',
      '{{entity}} not found',
      'This field is required',
      'Failed to update user',
    ])
      expect(texts, known).toContain(known);
    expect(messages.length).toBeGreaterThan(600);
  });

  it('each collected message has an Arabic entry (exact, or a pattern that matches it)', () => {
    const compiled = compileCatalog(arMessages);
    const missing = messages.filter(({ text }) => {
      if (arMessages[text] !== undefined) return false;
      if (text.includes('{{')) return true;
      return !compiled.patterns.some((p) => p.regex.test(text));
    });
    expect(missing.map((m) => `${m.file}: ${m.text}`)).toEqual([]);
  });

  it('each entry is Arabic and keeps the English placeholders', () => {
    const wrong = Object.entries(arMessages).filter(
      ([en, ar]) =>
        !ARABIC.test(ar) ||
        (placeholders(en).join() !==
          placeholders(ar)
            .filter((n, i, all) => all.indexOf(n) === i)
            .join() &&
          placeholders(en).some((n) => !ar.includes(`{{${n}}}`) && n !== 's')),
    );
    expect(wrong).toEqual([]);
  });
});

describe('translateMessage', () => {
  installTranslator('ar', translatorOf(arMessages));

  it('translates an exact message and leaves English alone', () => {
    expect(translateMessage('Invalid email or password', 'ar')).toBe('البريد الإلكتروني أو كلمة المرور غير صحيحة');
    expect(translateMessage('Invalid email or password', 'en')).toBe('Invalid email or password');
  });

  it('fills a pattern with the values of the English message, translating known labels', () => {
    expect(translateMessage('Unit price must be at most 20 characters', 'ar')).toBe('يجب ألا يزيد سعر الوحدة عن 20 حرف');
    expect(translateMessage('Work order not found', 'ar')).toBe('أمر العمل غير موجود');
    expect(translateMessage('Gizmo not found', 'ar')).toBe('Gizmo غير موجود');
    expect(translateMessage('A maintenance order (MO-0004) already exists for this request', 'ar')).toBe('يوجد أمر صيانة (MO-0004) لهذا الطلب بالفعل');
  });

  it('falls back to the English text it does not know', () => {
    expect(translateMessage('Something nobody wrote down', 'ar')).toBe('Something nobody wrote down');
  });
});
