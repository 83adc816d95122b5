import {
  auditFiles,
  AUDIT_ACTIONS,
  auditActionLabel,
  auditActorLabel,
  formatDateTime,
  createAuditExportFlow,
  createAuditLogFlow,
  NO_FILTERS,
} from '@vita-docs/core';
import type { AuditAction, AuditEntry, AuditFilters, AuditLogFlow } from '@vita-docs/core';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, Navigate } from '../app/router';
import { auditCsv } from '../adapters/audit-csv';
import { paths } from '../app/paths';
import { useServices } from '../app/services';
import { AdminOnly, PleaseSignIn } from '../components/admin-only';
import { Field } from '../components/field';
import { Loading, Page } from '../components/page';
import { useFlow, useFlowInstance } from '../hooks/use-flow';
import '../styles/audit.css';

const TITLE = 'Audit log';

/** `/admin/audit` (docs/behaviour.md#audit-screen): admins only; others go to /home. */
export function AdminAuditScreen() {
  return (
    <AdminOnly title={TITLE}>
      <AuditLog />
    </AdminOnly>
  );
}

function AuditLog() {
  const { api, platform, clock } = useServices();
  const flow = useFlowInstance(() => createAuditLogFlow({ api }));
  const exporter = useFlowInstance(() => createAuditExportFlow({ api, platform, clock, toCsv: auditCsv }));
  const state = useFlow(flow);
  const exporting = useFlow(exporter).status === 'exporting';
  useEffect(() => {
    void flow.send({ type: 'apply', filters: NO_FILTERS });
  }, [flow]);
  if (state.status === 'signedOut') return <PleaseSignIn title={TITLE} />;
  if (state.status === 'forbidden') return <Navigate to={paths.home} replace />;
  const exportCsv = () => exporter.send({ type: 'export', filters: state.filters });

  return (
    <Page title={TITLE} width="wide">
      <div className="actions">
        <Link className="button" to={paths.home}>
          Back
        </Link>
        <button type="button" className="button" disabled={exporting} onClick={() => void exportCsv()}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </div>
      <FilterForm flow={flow} initial={state.filters} />
      {state.status === 'loading' && <Loading />}
      {state.status === 'error' && (
        <p className="status status--error" role="alert">
          {state.error}
        </p>
      )}
      {state.status === 'ready' && (
        <>
          <AuditTable items={state.items} />
          {state.error && (
            <p className="status status--error" role="alert">
              {state.error}
            </p>
          )}
          {state.next !== null && (
            <button
              type="button"
              className="button"
              disabled={state.loadingMore}
              onClick={() => void flow.send({ type: 'more' })}
            >
              {state.loadingMore ? 'Loading…' : 'Load more'}
            </button>
          )}
        </>
      )}
    </Page>
  );
}

function FilterForm({ flow, initial }: { flow: AuditLogFlow; initial: AuditFilters }) {
  const [filters, setFilters] = useState(initial);
  const id = useId();
  const set = (patch: Partial<AuditFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void flow.send({ type: 'apply', filters });
  };
  return (
    <form className="audit-filters panel" aria-label="Filter the audit log" onSubmit={submit}>
      <Field
        label="User email"
        name="actor"
        type="email"
        value={filters.actor}
        onChange={(e) => set({ actor: e.currentTarget.value })}
      />
      <Field
        label="Client name or ID"
        name="client"
        value={filters.client}
        onChange={(e) => set({ client: e.currentTarget.value })}
      />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-action`}>
          Action
        </label>
        <select
          id={`${id}-action`}
          className="field__input"
          value={filters.action}
          onChange={(e) => set({ action: e.currentTarget.value as AuditAction | '' })}
        >
          <option value="">Any action</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {auditActionLabel(action)}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="From"
        name="from"
        type="date"
        value={filters.from}
        onChange={(e) => set({ from: e.currentTarget.value })}
      />
      <Field
        label="To"
        name="to"
        type="date"
        value={filters.to}
        onChange={(e) => set({ to: e.currentTarget.value })}
      />
      <div className="actions actions--tight audit-filters__buttons">
        <button type="submit" className="button button--primary">
          Apply
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setFilters(NO_FILTERS);
            void flow.send({ type: 'apply', filters: NO_FILTERS });
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}

/** The files an entry names, as `category / file name` where the key says so. */
const files = (entry: AuditEntry) => auditFiles(entry.keys).join(', ');

function AuditTable({ items }: { items: readonly AuditEntry[] }) {
  if (items.length === 0) return <p>No entries match.</p>;
  return (
    <div className="audit-table__scroll" tabIndex={0} role="region" aria-label="Audit entries">
      <table className="audit-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Client</th>
            <th scope="col">Files and details</th>
            <th scope="col">IP</th>
          </tr>
        </thead>
        <tbody>
          {items.map((entry) => (
            <tr key={entry.id}>
              <td>
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              </td>
              <td className="audit-table__who">{auditActorLabel(entry)}</td>
              <td>{auditActionLabel(entry.action)}</td>
              <td className="audit-table__client">
                {entry.clientId ? (
                  <>
                    {entry.clientName && <span className="audit-table__name">{entry.clientName}</span>}{' '}
                    <span className="audit-table__id">{entry.clientId}</span>
                  </>
                ) : (
                  '—'
                )}
              </td>
              <td>{[files(entry), entry.detail].filter(Boolean).join(' — ') || '—'}</td>
              <td>{entry.ip ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
