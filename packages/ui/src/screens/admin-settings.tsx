import { errorMessage, isApiError, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, RETENTION_NOTICE_DAYS } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { AdminOnly } from '../components/admin-only';
import { Loading, Page } from '../components/page';

const TITLE = 'Settings';

/** `/admin/settings` (docs/behaviour.md#settings-screen): the retention rule; admins only. */
export function AdminSettingsScreen() {
  return (
    <AdminOnly title={TITLE}>
      <RetentionForm />
    </AdminOnly>
  );
}

type Loaded = { status: 'loading' } | { status: 'ready'; on: boolean; days: string } | { status: 'error'; error: string };

function RetentionForm() {
  const { api } = useServices();
  const [form, setForm] = useState<Loaded>({ status: 'loading' });
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const id = useId();
  useEffect(() => {
    let live = true;
    api.getRetention().then(
      ({ days }) => live && setForm({ status: 'ready', on: days !== null, days: String(days ?? 180) }),
      (error: unknown) => live && setForm({ status: 'error', error: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [api]);

  if (form.status === 'loading') {
    return (
      <Page title={TITLE}>
        <Loading />
      </Page>
    );
  }
  if (form.status === 'error') {
    return (
      <Page title={TITLE}>
        <p className="status status--error" role="alert">
          {form.error}
        </p>
      </Page>
    );
  }

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setResult(null);
    try {
      const { days } = await api.setRetention({ body: { days: form.on ? Number(form.days) : null } });
      setForm({ status: 'ready', on: days !== null, days: String(days ?? form.days) });
      setResult({ ok: true, text: 'Saved.' });
    } catch (error) {
      setResult({ ok: false, text: isApiError(error) ? error.message : errorMessage(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page title={TITLE}>
      <form className="form" aria-labelledby={`${id}-title`} onSubmit={(e) => void save(e)}>
        <h2 id={`${id}-title`} className="panel__title">
          Retention
        </h2>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.on}
            onChange={(e) => setForm({ ...form, on: e.currentTarget.checked })}
          />
          Delete a client’s documents after the client was submitted
        </label>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-days`}>
            Days after submission
          </label>
          <input
            id={`${id}-days`}
            className="field__input"
            type="number"
            inputMode="numeric"
            min={RETENTION_MIN_DAYS}
            max={RETENTION_MAX_DAYS}
            required={form.on}
            disabled={!form.on}
            value={form.days}
            aria-describedby={`${id}-hint`}
            onChange={(e) => setForm({ ...form, days: e.currentTarget.value })}
          />
          <p className="field__hint" id={`${id}-hint`}>
            {`Between ${RETENTION_MIN_DAYS} and ${RETENTION_MAX_DAYS} days. The client’s volunteer is emailed ${RETENTION_NOTICE_DAYS} days before; the client and its document types stay.`}
          </p>
        </div>
        <div className="actions">
          <Link className="button" to={paths.home}>
            Back
          </Link>
          <button type="submit" className="button button--primary" disabled={saving}>
            Save
          </button>
        </div>
        <p className={`status${result && !result.ok ? ' status--error' : ''}`} role="status">
          {result?.text ?? ''}
        </p>
      </form>
    </Page>
  );
}
