import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import { renderLoginHtml } from './login-prerender';
import { bootLogin } from './login-standalone';
import { LANGUAGE_KEY } from '../../../web/i18n/language';
import { holdEarlySubmits, takeHeldSubmit } from '../../../web/early-submit';

// Decision 050: an organisation's /login arrives with the form's static HTML (the build renders it, the server
// puts it into #root[data-prerendered]); the lean boot takes it over without losing what a fast user typed.
function staticPage() {
  const root = document.createElement('div');
  root.id = 'root';
  root.setAttribute('data-prerendered', 'login');
  root.innerHTML = renderLoginHtml();
  document.body.replaceChildren(root);
  return root;
}

const field = (root: HTMLElement, name: string) => root.querySelector<HTMLInputElement>(`[data-testid="login-${name}"]`)!;

/** What a user's typing does before any script of the page has run: the value changes, no React handler hears it. */
function typeBeforeScripts(input: HTMLInputElement, text: string) {
  input.focus();
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

afterEach(() => {
  document.body.replaceChildren();
  localStorage.clear();
});

describe("the login page's static form", () => {
  it('holds the form: email, password and the submit button, labelled', () => {
    const root = staticPage();
    expect(field(root, 'email').type).toBe('email');
    expect(field(root, 'password').type).toBe('password');
    expect(root.querySelector('[data-testid="login-submit"]')).not.toBeNull();
    expect(root.querySelector(`label[for="${field(root, 'email').id}"]`)?.textContent).toContain('Email');
  });

  it('is taken over by React with what the user typed before it arrived: the sign-in sends it', async () => {
    const root = staticPage();
    const calls: { url: string; body: unknown }[] = [];
    globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify({ error: 'Invalid email or password' }), { status: 401, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const errors = vi.spyOn(console, 'error');
    const email = field(root, 'email');
    typeBeforeScripts(email, 'fast@acme.test');
    typeBeforeScripts(field(root, 'password'), 'Typed1234!');
    await act(async () => {
      await bootLogin(root);
    });
    // the same elements (hydrated, not replaced), still holding the text and the focus
    expect(field(root, 'email')).toBe(email);
    expect(email.value).toBe('fast@acme.test');
    expect(field(root, 'password').value).toBe('Typed1234!');
    expect(document.activeElement).toBe(field(root, 'password'));
    expect(root.hasAttribute('data-prerendered')).toBe(false);
    // the markup matched: no hydration error (React would have thrown the static form away and rendered anew)
    expect(errors.mock.calls.filter((c) => /hydrat/i.test(String(c[0])))).toEqual([]);
    errors.mockRestore();
    await act(async () => {
      root.querySelector<HTMLButtonElement>('[data-testid="login-submit"]')!.click();
    });
    await waitFor(() => expect(calls.find((c) => c.url === '/api/login')?.body).toEqual({ email: 'fast@acme.test', password: 'Typed1234!' }));
    expect(root.querySelector('.login-error')).toBeNull();
  });

  it('is replaced, not hydrated, for a reader of another language: the screen comes in Arabic', async () => {
    localStorage.setItem(LANGUAGE_KEY, 'ar');
    const root = staticPage();
    await act(async () => {
      await bootLogin(root);
    });
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(root.hasAttribute('data-prerendered')).toBe(false);
    expect(root.querySelector('.login-title')?.textContent).not.toBe('Sign in');
    expect(root.querySelectorAll('.login-root')).toHaveLength(1);
  });
});

describe('a sign-in submitted before the scripts took the static form over', () => {
  it('is held back (no native submit, no password in the address) and sent once React has the form', async () => {
    const root = staticPage();
    holdEarlySubmits(document);
    const calls: { url: string; body: unknown }[] = [];
    globalThis.fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify({ error: 'Invalid email or password' }), { status: 401, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    typeBeforeScripts(field(root, 'email'), 'early@acme.test');
    typeBeforeScripts(field(root, 'password'), 'Early1234!');
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    root.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    expect(calls).toEqual([]);
    await act(async () => {
      await bootLogin(root);
    });
    await waitFor(() => expect(calls.find((c) => c.url === '/api/login')?.body).toEqual({ email: 'early@acme.test', password: 'Early1234!' }));
    // once React has the form, its own submits are not held
    const later = new Event('submit', { bubbles: true, cancelable: true });
    root.querySelector('form')!.dispatchEvent(later);
    expect(takeHeldSubmit()).toBe(false);
  });
});
