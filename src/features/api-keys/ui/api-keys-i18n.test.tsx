import { describe, expect, it } from 'vitest';
import { i18n, loadLanguage } from '../../../web/i18n';
import { API_KEY_ROLES } from '../api-keys.schema';
import './api-keys-i18n';
import '../../webhooks/ui/webhooks-i18n';

describe('API keys and webhooks in Arabic', () => {
  it('Revoke is not Cancel; the roles are the common role labels; no Cancel of their own', async () => {
    await loadLanguage('ar');
    const ar = i18n.getFixedT('ar');
    expect(ar('apiKeys:revoke')).toBe('إبطال');
    for (const cancel of [ar('actions.cancel'), ar('confirm.cancel')]) expect(ar('apiKeys:revoke')).not.toBe(cancel);
    // worker and manager come from the common labels (the users screen's words), not a copy in the namespace
    for (const role of API_KEY_ROLES.filter((r) => r !== 'read-only')) {
      expect(i18n.exists(`apiKeys:roles.${role}`, { lng: 'ar' })).toBe(false);
      expect(ar(`roles.${role}`)).not.toBe(`roles.${role}`);
    }
    expect(i18n.exists('apiKeys:cancel', { lng: 'ar' })).toBe(false);
    expect(i18n.exists('webhooks:cancel', { lng: 'ar' })).toBe(false);
  });
});
