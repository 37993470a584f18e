import { describe, expect, it } from 'vitest';
import { subdomainOf } from './subdomain';

describe('subdomainOf: the one rule for which organisation a host names', () => {
  it.each([
    ['acme.localhost:3000', 'localhost', 'acme'],
    ['localhost:3000', 'localhost', null],
    ['ACME.Cmms.Example.com', 'cmms.example.com', 'acme'],
    // With a base domain of three labels, the bare domain is not an organisation called "cmms".
    ['cmms.example.com', 'cmms.example.com', null],
    ['cmms.example.com:443', 'cmms.example.com', null],
    ['a.b.cmms.example.com', 'cmms.example.com', null],
    ['acme.evil.com', 'cmms.example.com', null],
    ['acmecmms.example.com', 'cmms.example.com', null],
    [undefined, 'localhost', null],
  ])('%s under %s -> %s', (host, base, expected) => {
    expect(subdomainOf(host, base)).toBe(expected);
  });
});
