import { afterEach, describe, expect, it } from 'vitest';
import { baseHost, isOrganizationHost, organizationUrl } from './org-host';

const declare = (base: string) => {
  const meta = document.createElement('meta');
  meta.name = 'base-domain';
  meta.content = base;
  document.head.append(meta);
};

afterEach(() => document.querySelectorAll('meta[name="base-domain"]').forEach((m) => m.remove()));

describe('org-host', () => {
  it('takes the base domain the server declares: a three-label base domain is not an organisation', () => {
    declare('cmms.example.com');
    expect(isOrganizationHost({ hostname: 'cmms.example.com' })).toBe(false);
    expect(isOrganizationHost({ hostname: 'acme.cmms.example.com' })).toBe(true);
    expect(baseHost({ hostname: 'acme.cmms.example.com', port: '' })).toBe('cmms.example.com');
    expect(organizationUrl('acme', '/login', { protocol: 'https:', hostname: 'cmms.example.com', port: '' })).toBe('https://acme.cmms.example.com/login');
  });

  it('without the declaration (the dev server) counts labels as before', () => {
    expect(isOrganizationHost({ hostname: 'localhost' })).toBe(false);
    expect(isOrganizationHost({ hostname: 'acme.localhost' })).toBe(true);
    expect(baseHost({ hostname: 'acme.localhost', port: '3000' })).toBe('localhost:3000');
  });
});
