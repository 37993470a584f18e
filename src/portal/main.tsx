import { StrictMode, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { PORTAL_LIMITS, PORTAL_STATUSES, PORTAL_URGENCIES } from '../features/request-portal/request-portal.values';
import type { PortalFormDto, PortalStatusDto } from '../features/request-portal/request-portal.schema';
import { formatDateTime } from '../shared/format';
import { STRINGS, type Lang } from './strings';
import './portal.css';

/**
 * The public request portal (decision 039): /r/<token> (a label's code), /portal (the general form) and
 * /portal/status/<token> (the requester's private page). React and plain CSS only: the page must load in
 * under 80 KB of gzipped JavaScript on a poor connection, so nothing of the dashboard comes along.
 */

type Words = (typeof STRINGS)[Lang];

const initialLang = (): Lang => {
  const stored = localStorage.getItem('portal-lang');
  if (stored === 'ar' || stored === 'en') return stored;
  return navigator.language.toLowerCase().startsWith('ar') ? 'ar' : 'en';
};

const fill = (s: string, values: Record<string, string>) => s.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '');

async function getJson<T>(url: string): Promise<{ ok: true; data: T } | { ok: false; status: number }> {
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) return { ok: false, status: res.status };
    return { ok: true, data: (await res.json()) as T };
  } catch {
    return { ok: false, status: 0 };
  }
}

async function postForm(url: string, body: FormData) {
  try {
    const res = await fetch(url, { method: 'POST', body });
    const data = (await res.json().catch(() => ({}))) as { error?: string; issues?: { path: string; message: string }[] } & Record<string, unknown>;
    return { ok: res.ok, status: res.status, data };
  } catch {
    return { ok: false, status: 0, data: {} as Record<string, unknown> & { error?: string } };
  }
}

function Shell({ w, lang, setLang, org, children }: { w: Words; lang: Lang; setLang(l: Lang): void; org?: string; children: ReactNode }) {
  return (
    <main className="page">
      <header className="top">
        <span className="org">{org ?? ''}</span>
        <button type="button" className="link" onClick={() => setLang(lang === 'en' ? 'ar' : 'en')} lang={lang === 'en' ? 'ar' : 'en'}>
          {w.language}
        </button>
      </header>
      {children}
    </main>
  );
}

function Failure({ w, status, retry }: { w: Words; status: number; retry(): void }) {
  return (
    <div className="card" role="alert" data-testid="portal-error">
      <p>{status === 404 ? w.notFound : w.failed}</p>
      {status !== 404 && (
        <button type="button" onClick={retry}>
          {w.retry}
        </button>
      )}
    </div>
  );
}

function RequestForm({
  w,
  form,
  code,
  onSent,
}: {
  w: Words;
  form: PortalFormDto;
  code?: string;
  onSent(result: { number: string; statusUrl: string; statusToken: string }): void;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const photos = data.getAll('photos').filter((f): f is File => f instanceof File && f.size > 0);
    data.delete('photos');
    const found: Record<string, string> = {};
    if (!String(data.get('description') ?? '').trim()) found.description = w.required;
    if (photos.length > PORTAL_LIMITS.photosPerRequest) found.photos = w.tooManyPhotos;
    for (const f of ['name', 'email', 'phone'] as const) if (form.fields[f] === 'required' && !String(data.get(f) ?? '').trim()) found[f] = w.required;
    if (!code && form.published.length && !data.get('where')) found.where = w.required;
    setErrors(found);
    if (Object.keys(found).length) return;
    for (const p of photos) data.append('photos', p, p.name);
    if (code) data.set('code', code);
    // the requester's e-mails are written in the page's language (decision 065)
    data.set('language', document.documentElement.lang === 'ar' ? 'ar' : 'en');
    setBusy(true);
    const res = await postForm('/api/portal/submit-request', data);
    setBusy(false);
    if (res.ok) return onSent(res.data as { number: string; statusUrl: string; statusToken: string });
    const issues = (res.data.issues as { path: string; message: string }[] | undefined) ?? [];
    setErrors(issues.length ? Object.fromEntries(issues.map((i) => [i.path || 'form', i.message])) : { form: (res.data.error as string) ?? w.failed });
  };
  const contact = (['name', 'email', 'phone'] as const).filter((f) => form.fields[f] !== 'hidden');
  return (
    <form className="card" onSubmit={(e) => void submit(e)} noValidate data-testid="portal-form">
      <h1>{w.title}</h1>
      {form.welcome && <p className="welcome">{form.welcome}</p>}
      {form.target ? (
        <p className="where" data-testid="portal-target">
          <b>{w.where}:</b> {form.target.name}
          {form.target.number ? ` (${form.target.number})` : ''}
        </p>
      ) : (
        form.published.length > 0 && (
          <label>
            {w.where}
            <select name="where" defaultValue="" aria-invalid={!!errors.where} data-testid="portal-where">
              <option value="" disabled>
                {w.choose}
              </option>
              {form.published.map((p) => (
                <option key={`${p.kind}:${p.id}`} value={`${p.kind}:${p.id}`}>
                  {p.name}
                </option>
              ))}
            </select>
            {errors.where && <span className="error">{errors.where}</span>}
          </label>
        )
      )}
      <label>
        {w.what}
        <textarea
          name="description"
          rows={4}
          maxLength={PORTAL_LIMITS.descriptionMax}
          placeholder={w.whatHint}
          aria-invalid={!!errors.description}
          data-testid="portal-description"
        />
        {errors.description && <span className="error">{errors.description}</span>}
      </label>
      <fieldset>
        <legend>{w.urgency}</legend>
        <div className="choices">
          {PORTAL_URGENCIES.map((u) => (
            <label key={u} className="choice">
              <input type="radio" name="urgency" value={u} defaultChecked={u === 'normal'} data-testid={`portal-urgency-${u}`} />
              {w.urgencies[u]}
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        {w.photos}
        {/* No `capture`: it would force the camera; a photo already taken is as welcome. */}
        <input type="file" name="photos" accept="image/jpeg,image/png,image/webp" multiple data-testid="portal-photos" />
        {errors.photos && <span className="error">{errors.photos}</span>}
      </label>
      {contact.length > 0 && (
        <fieldset>
          <legend>{w.contact}</legend>
          {contact.map((f) => (
            <label key={f}>
              {w[f]} {form.fields[f] === 'optional' && <span className="muted">{w.optional}</span>}
              <input
                name={f}
                type={f === 'email' ? 'email' : f === 'phone' ? 'tel' : 'text'}
                autoComplete={f === 'name' ? 'name' : f}
                maxLength={f === 'email' ? 254 : 100}
                aria-invalid={!!errors[f]}
                data-testid={`portal-${f}`}
              />
              {errors[f] && <span className="error">{errors[f]}</span>}
            </label>
          ))}
        </fieldset>
      )}
      {/* The honeypot: hidden from people (and from assistive technology), filled by bots. */}
      <div className="hp" aria-hidden="true">
        <label>
          Website
          <input name="website" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      {errors.form && (
        <p className="error" role="alert">
          {errors.form}
        </p>
      )}
      <button type="submit" disabled={busy} data-testid="portal-send">
        {busy ? w.sending : w.send}
      </button>
    </form>
  );
}

function FormPage({ w, code, setOrg }: { w: Words; code?: string; setOrg(o: string): void }) {
  const [state, setState] = useState<{ form?: PortalFormDto; status?: number }>({});
  const [sent, setSent] = useState<{ number: string; statusUrl: string; statusToken: string } | null>(null);
  const load = async () => {
    setState({});
    const res = await getJson<PortalFormDto>(code ? `/api/portal/form/${encodeURIComponent(code)}` : '/api/portal/form');
    if (res.ok) {
      setOrg(res.data.organization);
      setState({ form: res.data });
    } else setState({ status: res.status });
  };
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code]);
  if (sent) {
    const path = `/portal/status/${sent.statusToken}`;
    return (
      <div className="card" data-testid="portal-sent">
        <h1>{fill(w.thanks, { n: sent.number })}</h1>
        <p>{w.keepLink}</p>
        <p className="token">
          <a href={path} data-testid="portal-status-link">
            {sent.statusUrl}
          </a>
        </p>
        <a className="button" href={path}>
          {w.follow}
        </a>
      </div>
    );
  }
  if (state.status !== undefined) return <Failure w={w} status={state.status} retry={() => void load()} />;
  if (!state.form) return <p className="card muted">{w.loading}</p>;
  return <RequestForm w={w} form={state.form} code={code} onSent={setSent} />;
}

function StatusPage({ w, lang, token, setOrg }: { w: Words; lang: Lang; token: string; setOrg(o: string): void }) {
  const [state, setState] = useState<{ data?: PortalStatusDto; status?: number }>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const load = async () => {
    const res = await getJson<PortalStatusDto>(`/api/portal/status/${encodeURIComponent(token)}`);
    if (res.ok) {
      setOrg(res.data.organization);
      setState({ data: res.data });
    } else setState({ status: res.status });
  };
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  const comment = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const data = new FormData(formEl);
    const file = data.get('photo');
    if (!String(data.get('body') ?? '').trim() && !(file instanceof File && file.size > 0)) return setError(w.required);
    if (file instanceof File && file.size === 0) data.delete('photo');
    setBusy(true);
    const res = await postForm(`/api/portal/status/${encodeURIComponent(token)}/add-comment`, data);
    setBusy(false);
    if (!res.ok) return setError((res.data.error as string) ?? w.failed);
    setError(undefined);
    formEl.reset();
    setState({ data: res.data.status as PortalStatusDto });
  };
  if (state.status !== undefined) return <Failure w={w} status={state.status} retry={() => void load()} />;
  const d = state.data;
  if (!d) return <p className="card muted">{w.loading}</p>;
  // The app's one format per language (decision 066): "09 Mar 2026, 06:05 PM", Arabic month names and digits.
  const date = (iso: string) => formatDateTime(iso, lang);
  const steps: readonly string[] = PORTAL_STATUSES.filter((s) => s !== 'declined' && s !== 'scheduled');
  return (
    <div className="card">
      <h1>{fill(w.statusTitle, { n: d.number })}</h1>
      <p className={`status status-${d.status}`} data-testid="portal-status">
        {w.statuses[d.status]}
      </p>
      {d.status !== 'declined' && (
        <ol className="steps" aria-label={w.urgency}>
          {(steps as (typeof PORTAL_STATUSES)[number][]).map((s) => (
            <li key={s} className={steps.indexOf(s) <= steps.indexOf(d.status === 'scheduled' ? 'accepted' : d.status) ? 'reached' : ''}>
              {w.statuses[s]}
            </li>
          ))}
        </ol>
      )}
      {d.declineReason && (
        <p data-testid="portal-reason">
          <b>{w.reason}:</b> {d.declineReason}
        </p>
      )}
      {d.target && (
        <p>
          <b>{w.where}:</b> {d.target.name}
        </p>
      )}
      <p className="description">{d.description}</p>
      {d.photos.length > 0 && (
        <div className="photos">
          {d.photos.map((p) => (
            <img key={p} src={p} alt={w.photo} loading="lazy" />
          ))}
        </div>
      )}
      <h2>{w.replies}</h2>
      {d.replies.length === 0 && <p className="muted">{w.noReplies}</p>}
      <ul className="replies" data-testid="portal-replies">
        {d.replies.map((r) => (
          <li key={r.id} className={r.author}>
            <span className="muted">
              {r.author === 'team' ? w.team : w.you} · <span data-testid="portal-reply-date">{date(r.createdAt)}</span>
            </span>
            {r.body && <p>{r.body}</p>}
            {r.photos.map((p) => (
              <img key={p} src={p} alt={w.photo} loading="lazy" />
            ))}
          </li>
        ))}
      </ul>
      {d.canComment && (
        <form onSubmit={(e) => void comment(e)} noValidate>
          <h2>{w.addComment}</h2>
          <label>
            {w.comment}
            <textarea name="body" rows={2} maxLength={PORTAL_LIMITS.commentMax} data-testid="portal-comment" />
          </label>
          <label>
            {w.photo}
            <input type="file" name="photo" accept="image/jpeg,image/png,image/webp" />
          </label>
          <div className="hp" aria-hidden="true">
            <input name="website" tabIndex={-1} autoComplete="off" />
          </div>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy} data-testid="portal-comment-send">
            {w.add}
          </button>
        </form>
      )}
      {d.expiresAt && (
        <p className="muted" data-testid="portal-expires">
          {fill(w.expires, { d: date(d.expiresAt) })}
        </p>
      )}
    </div>
  );
}

/** /r/<token> for a signed-in member goes to the asset in the app; anyone else gets the form. */
async function signedIn() {
  try {
    const res = await fetch('/api/refresh', { method: 'POST', credentials: 'same-origin' });
    return res.ok;
  } catch {
    return false;
  }
}

function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [org, setOrg] = useState<string>();
  const [checked, setChecked] = useState(false);
  const w = STRINGS[lang];
  const path = window.location.pathname;
  const code = /^\/r\/([A-Za-z0-9_-]{16,64})\/?$/.exec(path)?.[1];
  const status = /^\/portal\/status\/([A-Za-z0-9_-]{16,64})\/?$/.exec(path)?.[1];
  const setLang = (l: Lang) => {
    localStorage.setItem('portal-lang', l);
    setLangState(l);
  };
  useEffect(() => {
    document.documentElement.lang = lang;
    document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
    document.title = w.title;
  }, [lang, w.title]);
  useEffect(() => {
    if (!code) return setChecked(true);
    void signedIn().then((yes) => {
      if (yes) window.location.replace(`/dashboard/scan/${code}`);
      else setChecked(true);
    });
  }, [code]);
  let body: ReactNode;
  if (!checked) body = <p className="card muted">{w.loading}</p>;
  else if (status) body = <StatusPage w={w} lang={lang} token={status} setOrg={setOrg} />;
  else if (code || /^\/portal\/?$/.test(path)) body = <FormPage w={w} code={code} setOrg={setOrg} />;
  else body = <Failure w={w} status={404} retry={() => undefined} />;
  return (
    <Shell w={w} lang={lang} setLang={setLang} org={org}>
      {body}
    </Shell>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
