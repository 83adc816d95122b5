import { createOverviewFlow, lastThirtyDays } from '@vita-docs/core';
import type { ApiClient, ProgrammeOverview as Overview } from '@vita-docs/core';
import { useEffect, useId } from 'react';
import { Loading } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import '../../styles/overview.css';

/** Documents uploaded per day as bars: inline SVG (no chart library), described in words for screen readers. */
function UploadsChart({ perDay, now }: { perDay: Overview['uploadsPerDay']; now: number }) {
  const days = lastThirtyDays(perDay, now);
  const most = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const busiest = days.reduce((a, b) => (b.count > a.count ? b : a));
  const width = 300;
  const height = 80;
  const bar = width / days.length;
  const label =
    total === 0
      ? 'Documents uploaded per day, last 30 days: none.'
      : `Documents uploaded per day, last 30 days: ${total} in all, most on ${busiest.day} (${busiest.count}).`;
  return (
    <svg
      className="overview__chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      preserveAspectRatio="none"
    >
      {days.map((d, i) => {
        const h = (d.count / most) * (height - 2);
        return (
          <rect
            key={d.day}
            x={i * bar + 1}
            y={height - h}
            width={bar - 2}
            height={h}
            className="overview__bar"
          >
            <title>{`${d.day}: ${d.count}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

/**
 * The programme overview on the admin's dashboard (docs/behaviour.md#programme-overview), loaded on
 * its own after the other sections: clients this season, complete ones, uploads per day, and per
 * volunteer their clients and missing categories.
 */
export function ProgrammeOverview({ api, now }: { api: Pick<ApiClient, 'overview'>; now: number }) {
  const flow = useFlowInstance(() => createOverviewFlow({ api }));
  const state = useFlow(flow);
  const headingId = useId();
  useEffect(() => {
    void flow.send({ type: 'load' });
  }, [flow]);
  let body;
  if (state.status === 'loading') body = <Loading />;
  else if (state.status === 'error') body = <p className="status status--error">{state.error}</p>;
  else {
    const { overview } = state;
    body = (
      <>
        <dl className="overview__figures">
          <div>
            <dt>Clients this season</dt>
            <dd>{overview.clients}</dd>
          </div>
          <div>
            <dt>Clients with every category Ready</dt>
            <dd>{overview.complete}</dd>
          </div>
        </dl>
        <h3 className="overview__subtitle">Documents uploaded per day</h3>
        <UploadsChart perDay={overview.uploadsPerDay} now={now} />
        <h3 className="overview__subtitle">Volunteers</h3>
        {overview.volunteers.length === 0 ? (
          <p className="status">No clients yet.</p>
        ) : (
          <div className="overview__scroll" tabIndex={0} role="region" aria-label="Clients per volunteer">
            <table className="overview__table">
              <thead>
                <tr>
                  <th scope="col">Volunteer</th>
                  <th scope="col">Clients</th>
                  <th scope="col">Complete</th>
                  <th scope="col">Missing categories</th>
                </tr>
              </thead>
              <tbody>
                {overview.volunteers.map((v) => (
                  <tr key={v.email ?? 'none'}>
                    <td>{v.email ? `${v.name ?? ''} (${v.email})`.trim() : 'No volunteer (orphaned)'}</td>
                    <td>{v.clients}</td>
                    <td>{v.complete}</td>
                    <td>{v.missing}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>
    );
  }
  return (
    <section className="section overview" aria-labelledby={headingId} aria-busy={state.status === 'loading'}>
      <h2 className="section__title" id={headingId}>
        Programme overview
      </h2>
      {body}
    </section>
  );
}
