/** Turning a spec into bytes on the wire: the request line, the headers, the body, the protocol twists. */
import { endpoints } from '@vita-docs/core';
import { Bytes, toJson, urlPiece, valueBytes, type Val } from './values.js';
import type { ProtocolCase, Spec, Tamper, Who } from './spec.js';
import type { Wire } from './raw-client.js';

export interface Identity {
  cookie: string;
  csrf: string;
}

/** What `materialize` needs besides the spec. */
export interface Wiring {
  port: number;
  identities: Record<Who, Identity>;
  putTemplates: string[];
  getTemplate: () => string;
}

const CRLF = '\r\n';
const STATE_CHANGING = new Set(['POST', 'DELETE', 'PUT', 'PATCH']);

function tamperQuery(template: string, t: Tamper): string {
  const entries = [...new URLSearchParams(template)];
  const enc = (v: Val) => urlPiece(v, false);
  switch (t.t) {
    case 'none':
      return template;
    case 'flip':
      return entries
        .map(([k, v]) => {
          if (k !== t.param || v.length === 0) return `${k}=${encodeURIComponent(v)}`;
          const at = t.at % v.length;
          const swapped = v[at] === 'A' ? 'B' : 'A';
          return `${k}=${encodeURIComponent(v.slice(0, at) + swapped + v.slice(at + 1))}`;
        })
        .join('&');
    case 'drop':
      return entries
        .filter(([k]) => k !== t.param)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('&');
    case 'twice':
      return `${template}&${t.param}=${enc(t.value)}`;
    case 'set':
      return entries
        .map(([k, v]) => `${k}=${k === t.param ? enc(t.value) : encodeURIComponent(v)}`)
        .join('&');
    case 'append':
      return `${template}&${enc(t.name)}=${enc(t.value)}`;
    case 'replace':
      return typeof t.query === 'string' ? t.query : t.query && Buffer.from(t.query.bytes).toString('latin1');
  }
}

/** The method, path and query of a spec, and the label its failures are grouped under. */
function route(spec: Spec, wiring: Wiring): { method: string; path: string; query: string; label: string } {
  if (spec.route === 'storagePut' || spec.route === 'storageGet') {
    const put = spec.route === 'storagePut';
    const method = spec.method ?? (put ? 'PUT' : 'GET');
    const path = put ? '/api/storage/put' : '/api/storage/get';
    const template = put
      ? (wiring.putTemplates[(spec.storage?.template ?? 0) % wiring.putTemplates.length] ?? '')
      : wiring.getTemplate();
    const query = tamperQuery(template, spec.storage?.tamper ?? { t: 'none' });
    return { method, path, query, label: `${method} ${path}` };
  }
  if (spec.route === 'path') {
    const method = spec.method ?? 'GET';
    const path =
      spec.rawPath instanceof Bytes
        ? Buffer.from(spec.rawPath.bytes).toString('latin1')
        : (spec.rawPath ?? '/api');
    return { method, path, query: '', label: `${method} (other paths)` };
  }
  const def = endpoints[spec.route];
  const path = `/api${def.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = spec.params[name];
    return value === undefined ? '' : urlPiece(value, spec.rawParams === true);
  })}`;
  return { method: spec.method ?? def.method, path, query: '', label: `${def.method} /api${def.path}` };
}

/** The spec's own query, unless the route already made one (the signed storage URLs). */
function queryOf(spec: Spec, query: string): string {
  if (typeof spec.query === 'string') return query || spec.query;
  if (spec.query instanceof Bytes) return query || Buffer.from(spec.query.bytes).toString('latin1');
  if (spec.query.length > 0)
    return query || spec.query.map(([k, v]) => `${urlPiece(k, false)}=${urlPiece(v, false)}`).join('&');
  return query;
}

function bodyOf(spec: Spec): { body: Buffer; stream?: Wire['stream'] } {
  const b = spec.body;
  if (b.type === 'json') return { body: Buffer.concat(toJson(b.value)) };
  if (b.type === 'text') return { body: Buffer.from(b.text, b.latin1 ? 'latin1' : 'utf8') };
  if (b.type === 'huge')
    return { body: Buffer.alloc(0), stream: { bytes: b.bytes, chunked: b.chunked, keepAlive: b.keepAlive } };
  return { body: Buffer.alloc(0) };
}

/** The identity's cookie and CSRF token, as the spec wants it (valid, missing, someone else's…). */
function credentials(spec: Spec, wiring: Wiring): Array<[string, string]> {
  const identity = wiring.identities[spec.who];
  const headers: Array<[string, string]> = [];
  if (identity.cookie) headers.push(['Cookie', identity.cookie]);
  const others = Object.values(wiring.identities).filter((i) => i !== identity);
  const token = {
    valid: identity.csrf,
    wrong: `${identity.csrf.slice(0, -2)}AA`,
    foreign: others[0]?.csrf ?? 'x',
    huge: 'A'.repeat(12_000),
    twice: identity.csrf,
    missing: '',
  }[spec.csrf];
  if (spec.csrf !== 'missing') headers.push(['x-csrf-token', token]);
  if (spec.csrf === 'twice') headers.push(['x-csrf-token', identity.csrf]);
  return headers;
}

/** The headers a browser would send, then the spec's edits. */
function headersOf(spec: Spec, wiring: Wiring, method: string, body: Buffer, stream: Wire['stream']) {
  const headers: Array<[string, string]> = [
    ['Host', `127.0.0.1:${wiring.port}`],
    ['Connection', stream?.keepAlive ? 'keep-alive' : 'close'],
    [
      'X-Forwarded-For',
      spec.from === undefined
        ? `10.66.${spec.ip >> 8}.${spec.ip & 255}`
        : valueBytes(spec.from).toString('latin1'),
    ],
    ['User-Agent', 'vita-fuzz'],
    ['Accept', 'application/json'],
    ...credentials(spec, wiring),
  ];
  const put = spec.route === 'storagePut';
  const contentType =
    spec.contentType === undefined
      ? put
        ? 'application/pdf'
        : spec.body.type === 'none'
          ? null
          : 'application/json'
      : spec.contentType;
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  if (stream?.chunked) headers.push(['Transfer-Encoding', 'chunked']);
  else if (stream) headers.push(['Content-Length', String(stream.bytes)]);
  else if (spec.body.type !== 'none' || STATE_CHANGING.has(method))
    headers.push(['Content-Length', String(body.length)]);
  for (const edit of spec.headers) {
    const name = edit[1];
    if (edit[0] !== 'add')
      headers.splice(0, headers.length, ...headers.filter(([n]) => n.toLowerCase() !== name));
    if (edit[0] !== 'drop') headers.push([name, valueBytes(edit[2]).toString('latin1')]);
  }
  return headers;
}

/** A request on its way to bytes, for a protocol case to twist. */
interface Draft {
  spec: Spec;
  method: string;
  version: string;
  line: (method: string, target: string) => string;
  separator: string;
  headers: Array<[string, string]>;
  body: Buffer;
  trailer: Buffer;
}

const drop = (d: Draft, name: string) =>
  d.headers.splice(0, d.headers.length, ...d.headers.filter(([n]) => n.toLowerCase() !== name));

/** What each protocol case does to the request. */
const PROTOCOL: Record<ProtocolCase, (d: Draft) => void> = {
  'http/1.0 without host': (d) => {
    d.version = '1.0';
    drop(d, 'host');
  },
  'http/1.1 without host': (d) => drop(d, 'host'),
  'absolute-form target': (d) => (d.line = (m, t) => `${m} http://evil.example${t} HTTP/${d.version}`),
  'asterisk target': (d) => (d.line = () => `OPTIONS * HTTP/${d.version}`),
  'lower-case method': (d) => (d.method = d.method.toLowerCase()),
  'unknown method': (d) => (d.method = 'FOO'),
  'other method': (d) => (d.method = d.spec.method ?? 'PATCH'),
  'content-length and transfer-encoding': (d) => d.headers.push(['Transfer-Encoding', 'chunked']),
  'two content-lengths': (d) => d.headers.push(['Content-Length', String(d.body.length + 1)]),
  'content-length too small': (d) => {
    drop(d, 'content-length');
    d.headers.push(['Content-Length', String(Math.floor(d.body.length / 2))]);
  },
  'bare LF line ends': (d) => (d.separator = '\n'),
  'header without colon': (d) => d.headers.push(['X-No-Colon', '\u0000']),
  'space before colon': (d) => d.headers.push(['X-Space ', 'x']),
  'folded header': (d) => d.headers.push(['X-Folded', 'a\r\n b']),
  'NUL in header': (d) => d.headers.push(['X-Nul', 'a\u0000b']),
  'non-ASCII header name': (d) => d.headers.push(['X-N\u00e4me', 'x']),
  'many headers': (d) => {
    for (let i = 0; i < 3000; i += 1) d.headers.push([`X-H${i}`, 'x']);
  },
  'long request line': (d) =>
    (d.line = (m, t) => `${m} ${t}${t.includes('?') ? '&' : '?'}pad=${'a'.repeat(70_000)} HTTP/${d.version}`),
  'garbage after request': (d) =>
    (d.trailer = Buffer.from('\u0000\u00ff GARBAGE / HTTP/9.9\r\n\r\n', 'latin1')),
  expect: (d) => d.headers.push(['Expect', d.spec.who === 'anonymous' ? '100-continue' : 'something-else']),
  upgrade: (d) => {
    drop(d, 'connection');
    d.headers.push(['Connection', 'Upgrade'], ['Upgrade', 'websocket']);
  },
  'keep-alive': (d) => {
    drop(d, 'connection');
    d.headers.push(['Connection', 'keep-alive']);
  },
};

export function materialize(spec: Spec, wiring: Wiring): Wire {
  const { method, path, query: routeQuery, label } = route(spec, wiring);
  const query = queryOf(spec, routeQuery);
  const target = query ? `${path}?${query}` : path;
  const { body, stream } = bodyOf(spec);
  const d: Draft = {
    spec,
    method,
    version: '1.1',
    line: (m, t) => `${m} ${t} HTTP/${d.version}`,
    separator: CRLF,
    headers: headersOf(spec, wiring, method, body, stream),
    body,
    trailer: Buffer.alloc(0),
  };
  if (spec.protocol) PROTOCOL[spec.protocol](d);
  const headerText = d.headers.map(([n, v]) =>
    spec.protocol === 'header without colon' && n === 'X-No-Colon' ? n : `${n}: ${v}`,
  );
  const head = Buffer.from(
    `${d.line(d.method, target)}${d.separator}${headerText.join(d.separator)}${d.separator}${d.separator}`,
    'latin1',
  );
  return {
    head,
    body: Buffer.concat([body, d.trailer]),
    ...(stream && { stream }),
    method: d.method,
    label,
    target,
  };
}
