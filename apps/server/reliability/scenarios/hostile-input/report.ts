/** The scenario's row: what was done, what held, what broke. */
import { percentile, type Row } from '../../harness.js';
import { ENDPOINT_NAMES } from './contract.js';
import { RSS_SLACK_MB } from './health.js';
import { PROPERTIES } from './properties.js';
import { CONCURRENCY, fmt, mb } from './runner.js';
import type { Slow } from './slow.js';
import type { Tally } from './tally.js';

export interface RunSummary {
  name: string;
  seed: number;
  seconds: number;
  warmUp: number;
  tally: Tally;
  slows: readonly Slow[];
  slowSeconds: number;
  slowestProbe: number;
  alive: boolean;
  memory: { before: number; peak: number; after: number };
  broke: readonly string[];
}

export function statusList(tally: Tally): string {
  return [...tally.statusCounts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${status}×${fmt(n)}`)
    .join(' ');
}

export function slowText(s: RunSummary): string {
  return s.slows
    .map((slow) =>
      slow.closedAt
        ? `${slow.mode} closed by the server after ${((slow.closedAt - slow.openedAt) / 1000).toFixed(0)} s${slow.answer ? ` with ${slow.answer.status}` : ''}`
        : `${slow.mode} still open after ${s.slowSeconds.toFixed(0)} s (${fmt(slow.sent)} bytes sent)`,
    )
    .join('; ');
}

export function row(s: RunSummary): Row {
  const { tally, memory } = s;
  const fives = [...tally.statusCounts.entries()]
    .filter(([status]) => status >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  const kindList = PROPERTIES.map(({ kind }) => `${kind} ${fmt(tally.kindCounts.get(kind) ?? 0)}`).join(', ');
  const memoryHeld = memory.after <= memory.before + RSS_SLACK_MB;
  const who = (role: string) => fmt(tally.whoCounts.get(role) ?? 0);
  return {
    scenario: s.name,
    done:
      `${fmt(tally.done)} hostile requests in ${s.seconds.toFixed(0)} s (seed ${s.seed}, ${CONCURRENCY} at a time) on all ${tally.endpointsHit.size} of ${ENDPOINT_NAMES.length} endpoints ` +
      `and the signed storage URLs, as admin ${who('admin')} / volunteer ${who('volunteer')} / anonymous ${who('anonymous')}: ` +
      `${kindList} (the upload flows made ${fmt(tally.flowRequests)} requests on the wire); ` +
      `meanwhile ${s.slows.length} connections trickled a body, headers or an upload byte by byte for ${s.slowSeconds.toFixed(0)} s`,
    held:
      `${fmt(fives)} × 5xx; ${fmt(tally.answered4xx)} 4xx answers, ${tally.failures.size === 0 ? 'all' : 'not all'} JSON { error } with a text for people (statuses ${statusList(tally)}); ` +
      `${fmt(tally.cutOff)} oversized requests refused and reset before they were all sent; ` +
      `${s.alive ? 'the server stayed up and answered /api/me after the run' : 'the server EXITED'}; ` +
      `RSS ${mb(memory.before)} before (after a ${fmt(s.warmUp)}-request warm-up), ${mb(memory.peak)} peak, ${mb(memory.after)} after settling (${memoryHeld ? 'held' : 'NOT held'}: ≤ before + ${RSS_SLACK_MB} MB); ` +
      `latency p50/p99 ${percentile(tally.latencies, 50).toFixed(0)}/${percentile(tally.latencies, 99).toFixed(0)} ms; ` +
      `slow connections: ${slowText(s)}; others served meanwhile (/api/me within ${s.slowestProbe.toFixed(0)} ms)`,
    broke: s.broke.join('\n'),
  };
}
