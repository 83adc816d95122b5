import {
  createRetentionFlow,
  RETENTION_MAX_DAYS,
  RETENTION_MIN_DAYS,
  RETENTION_NOTICE_DAYS,
  retentionDaysValid,
  retentionReachText,
} from '@vita-docs/core';
import { useId } from 'react';
import type { FormEvent } from 'react';
import { Link } from '../app/router';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { SaveStatus } from '../components/save-status';
import { AdminOnly } from '../components/admin-only';
import { ConsentTextForm } from './admin-consent-text';
import { ProgrammeNameForm } from './admin-programme-name';
import { PasskeyPolicyForm } from './admin-passkey-policy';
import { ProgrammeReadingForm } from './admin-reading';
import { Loading, Page } from '../components/page';
import { useLoadedFlow } from '../hooks/use-flow';

const TITLE = 'Settings';

/**
 * `/admin/settings` (docs/behaviour.md#settings-screen): the retention rule, the passkey rule, the
 * programme's name, whether documents are checked on the device and the consent statement of request
 * links; admins only.
 */
export function AdminSettingsScreen() {
  return (
    <AdminOnly title={TITLE}>
      <RetentionForm />
    </AdminOnly>
  );
}

function RetentionForm() {
  const { api } = useServices();
  const [flow, form] = useLoadedFlow(() => createRetentionFlow({ api }));
  const id = useId();

  if (form.status !== 'ready') return <NotReady error={form.status === 'error' ? form.error : null} />;

  const save = (event: FormEvent) => {
    event.preventDefault();
    void flow.send({ type: 'save' });
  };

  return (
    <Page title={TITLE}>
      {/* Checked by the form's flow, which says why on the page (the browser's bubble alone is missed). */}
      <form className="form" aria-labelledby={`${id}-title`} onSubmit={save} noValidate>
        <h2 id={`${id}-title`} className="panel__title">
          Retention
        </h2>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.on}
            onChange={(e) => void flow.send({ type: 'setOn', on: e.currentTarget.checked })}
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
            aria-invalid={form.on && !retentionDaysValid(form.days)}
            onChange={(e) => void flow.send({ type: 'setDays', days: e.currentTarget.value })}
          />
          <p className="field__hint" id={`${id}-hint`}>
            {`Between ${RETENTION_MIN_DAYS} and ${RETENTION_MAX_DAYS} days. The client’s volunteer is emailed ${RETENTION_NOTICE_DAYS} days before; the client and its document types stay.`}
          </p>
        </div>
        {form.reach && (
          <p className="lead">{retentionReachText(form.reach.clients, form.reach.nextDeletionOn)}</p>
        )}
        <div className="actions">
          <Link className="button" to={paths.home}>
            Back
          </Link>
          <button type="submit" className="button button--primary" disabled={form.saving}>
            Save
          </button>
        </div>
        <SaveStatus outcome={form.outcome} />
      </form>
      <PasskeyPolicyForm />
      <ProgrammeNameForm />
      <ProgrammeReadingForm />
      <ConsentTextForm />
    </Page>
  );
}

/** The screen while the rule loads, or when it could not be loaded. */
function NotReady({ error }: { error: string | null }) {
  return (
    <Page title={TITLE}>
      {error === null ? (
        <Loading />
      ) : (
        <p className="status status--error" role="alert">
          {error}
        </p>
      )}
    </Page>
  );
}
