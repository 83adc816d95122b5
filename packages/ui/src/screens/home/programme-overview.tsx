import { createOverviewFlow, formatDate, lastThirtyDays } from '@vita-docs/core';
import type { ApiClient, ProgrammeOverview as Overview } from '@vita-docs/core';
import { useEffect, useId } from 'react';
import { Loading } from '../../components/page';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';
import '../../styles/overview.css';

/** `2026-11-20` as `Nov 20, 2026`, the way every screen writes a date (a UTC calendar day). */
const dayLabel = (day: string) => formatDate(`${day}T00:00:00Z`, { utc: true });

function Bars({ days, most }: { days: ReturnType<typeof lastThirtyDays>; most: number }) {
  const width = 300;
  const height = 80;
  const bar = width / days.length;
  return days.map((d, i) => {
    const h = (d.count / most) * (height - 2);
    return (
      <rect key={d.day} x={i * bar + 1} y={height - h} width={bar - 2} height={h} className="overview__bar">
        <title>{`${dayLabel(d.day)}: ${d.count}`}</title>
      </rect>
    );
  });
}

/**
 * Documents uploaded per day as bars: inline SVG (no chart library), described in words for screen
 * readers; its scale, dates and the busiest day are printed beside it, readable without hovering
 * (a phone has no hover).
 * @internal Exported for its tests.
 */
export function UploadsChart({ perDay, now }: { perDay: Overview['uploadsPerDay']; now: number }) {
  const days = lastThirtyDays(perDay, now);
  const most = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const busiest = days.reduce((a, b) => (b.count > a.count ? b : a));
  const summary =
    total === 0 ? 'none' : `${total} in all, most on ${dayLabel(busiest.day)} (${busiest.count})`;
  const dayAt = (i: number) => {
    const d = days[i];
    return d ? dayLabel(d.day) : '';
  };
  return (
    <figure className="overview__figure">
      <div className="overview__plot">
        <div className="overview__y" aria-hidden="true">
          <span>{most}</span>
          <span>0</span>
        </div>
        <svg
          className="overview__chart"
          viewBox="0 0 300 80"
          role="img"
          aria-label={`Documents uploaded per day, last 30 days: ${summary}.`}
          preserveAspectRatio="none"
        >
          <Bars days={days} most={most} />
        </svg>
      </div>
      <div className="overview__x" aria-hidden="true">
        <span>{dayAt(0)}</span>
        <span>{dayAt(Math.floor(days.length / 2))}</span>
        <span>{dayAt(days.length - 1)}</span>
      </div>
      <figcaption className="overview__caption" aria-hidden="true">
        {total === 0
          ? 'No documents uploaded in the last 30 days.'
          : `${total} documents in 30 days; most on ${dayLabel(busiest.day)} (${busiest.count}).`}
      </figcaption>
    </figure>
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
