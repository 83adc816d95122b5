/**
 * What the run counts (kinds, identities, statuses, endpoints, latencies) and the failures it found:
 * each kind of failure on each route once, with how often and the smallest request that showed it.
 */
import { MB } from '../../harness.js';
import { judge, type AnswerCheck, type Failure } from './checks.js';
import type { Answer, Outcome, Wire } from './raw-client.js';
import type { Kind, Spec } from './spec.js';

/** Failures of one kind on one route: how many, and the smallest request that showed it. */
export type Failures = Map<string, { count: number; size: number; repro: string }>;

export class Tally {
  readonly kindCounts = new Map<Kind, number>();
  readonly whoCounts = new Map<string, number>();
  readonly statusCounts = new Map<number, number>();
  readonly endpointsHit = new Set<string>();
  readonly failures: Failures = new Map();
  readonly latencies: number[] = [];
  answered4xx = 0;
  /** Oversized requests refused and reset before they were all sent. */
  cutOff = 0;
  /** Requests the upload flows made (each flow is one of the generated requests, and several on the wire). */
  flowRequests = 0;
  done = 0;

  /** Counts a request before it is sent. */
  count(spec: Spec): void {
    this.kindCounts.set(spec.kind, (this.kindCounts.get(spec.kind) ?? 0) + 1);
    const role = spec.who.startsWith('volunteer') ? 'volunteer' : spec.who;
    this.whoCounts.set(role, (this.whoCounts.get(role) ?? 0) + 1);
    if (spec.route !== 'path' && spec.route !== 'storagePut' && spec.route !== 'storageGet')
      this.endpointsHit.add(spec.route);
  }

  /** Counts the answers' statuses and judges each against `holds`: the failures they show. */
  judge(answers: readonly Answer[], method: string, holds: readonly AnswerCheck[]): Set<Failure> {
    const found = new Set<Failure>();
    for (const answer of answers) {
      this.statusCounts.set(answer.status, (this.statusCounts.get(answer.status) ?? 0) + 1);
      if (answer.status >= 400 && answer.status < 500) this.answered4xx += 1;
      const verdict = judge(answer, method, holds);
      if (verdict) found.add(verdict);
    }
    return found;
  }

  /** Records a failure under `group`, keeping the smallest request that showed it. */
  fail(group: string, size: number, repro: string): void {
    const known = this.failures.get(group);
    if (!known || size < known.size)
      this.failures.set(group, { count: (known?.count ?? 0) + 1, size, repro });
    else known.count += 1;
  }
}

export const excerpt = (bytes: Buffer, max: number) => {
  const text = JSON.stringify(bytes.subarray(0, max).toString('utf8'));
  return bytes.length > max ? `${text.slice(0, -1)}…" (${bytes.length} bytes)` : text;
};

export function describe(spec: Spec, wire: Wire, outcome: Outcome): string {
  const body = wire.stream
    ? `<${wire.stream.bytes / MB} MB${wire.stream.chunked ? ', chunked' : ''}>`
    : excerpt(wire.body, 120);
  // The headers the spec changed (all of them for protocol cases), each value cut short.
  const changed = new Set([
    ...spec.headers.map((edit) => edit[1]),
    ...(spec.from === undefined ? [] : ['x-forwarded-for']),
  ]);
  const lines = wire.head
    .toString('latin1')
    .split(/\r?\n/)
    .slice(1)
    .filter(
      (line) =>
        line && (spec.protocol !== undefined || changed.has(line.slice(0, line.indexOf(':')).toLowerCase())),
    )
    .map((line) => (line.length > 100 ? `${line.slice(0, 100)}… (${line.length} chars)` : line));
  const headers = lines.length > 0 ? ` headers ${JSON.stringify(lines.slice(0, 12).join('\n'))}` : '';
  const answer =
    outcome.answers
      .map((a) => `${a.status} ${a.headers.get('content-type') ?? '(no type)'} ${excerpt(a.body, 160)}`)
      .join(' + ') ||
    outcome.error ||
    '';
  const target =
    wire.target.length > 160 ? `${wire.target.slice(0, 160)}… (${wire.target.length} chars)` : wire.target;
  return `[${spec.kind}${spec.protocol ? `: ${spec.protocol}` : ''}, as ${spec.who}, csrf ${spec.csrf}] ${wire.method} ${JSON.stringify(target)} body ${body}${headers} → ${answer}`;
}
