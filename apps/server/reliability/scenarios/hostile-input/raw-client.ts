/**
 * A raw HTTP/1.1 client: writes a request's bytes as they are on a fresh socket, so nothing a
 * well-behaved client would refuse to send is out of reach, and reads back every answer.
 */
import net from 'node:net';

/** A request as bytes. */
export interface Wire {
  /** The whole request, or its head with a streamed body of `stream.bytes`. */
  head: Buffer;
  body: Buffer;
  stream?: { bytes: number; chunked: boolean; keepAlive: boolean };
  method: string;
  /** For the report: `METHOD /path` of the contract (or the storage route). */
  label: string;
  /** For the report: the request line's target. */
  target: string;
}

export interface Answer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}
export interface Outcome {
  answers: Answer[];
  /** Set when the connection ended without any answer (reset, timeout). */
  error?: string;
  /** The request was still being written when the connection failed. */
  unsent: boolean;
  ms: number;
}

/** A whole body and where the next answer starts, or (cut off) what of the body there is. */
type BodyRead = { body: Buffer; next: number } | { partial?: Buffer };

function readChunked(data: Buffer, from: number): BodyRead {
  const chunks: Buffer[] = [];
  let next = from;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', next);
    if (lineEnd < 0) return { partial: Buffer.concat(chunks) };
    const size = parseInt(data.subarray(next, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return {};
    if (size === 0) return { body: Buffer.concat(chunks), next: lineEnd + 4 };
    chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    next = lineEnd + 2 + size + 2;
    if (next > data.length) return { partial: Buffer.concat(chunks) };
  }
}

function readBody(
  data: Buffer,
  from: number,
  method: string,
  head: Omit<Answer, 'body'>,
  closed: boolean,
): BodyRead {
  if (method === 'HEAD' || head.status === 204 || head.status === 304)
    return { body: Buffer.alloc(0), next: from };
  if (/chunked/i.test(head.headers.get('transfer-encoding') ?? '')) return readChunked(data, from);
  if (head.headers.has('content-length')) {
    const length = Number(head.headers.get('content-length'));
    if (from + length > data.length) return { partial: data.subarray(from) };
    return { body: data.subarray(from, from + length), next: from + length };
  }
  return closed ? { body: data.subarray(from), next: data.length } : {};
}

function parseHead(head: Buffer): Omit<Answer, 'body'> {
  const lines = head.toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers = new Map<string, string>();
  for (const l of lines.slice(1)) {
    const colon = l.indexOf(':');
    if (colon > 0) headers.set(l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim());
  }
  return { status, headers };
}

/** Every complete HTTP response in `data` (pipelined answers included); a cut-off last one is kept when the socket closed. */
export function parseAnswers(
  data: Buffer,
  method: string,
  closed: boolean,
): { answers: Answer[]; complete: boolean } {
  const answers: Answer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) return { answers, complete: at >= data.length };
    const head = parseHead(data.subarray(at, end));
    if (head.status >= 100 && head.status < 200) {
      at = end + 4;
      continue;
    }
    const read = readBody(data, end + 4, method, head, closed);
    if (!('body' in read)) {
      const cut = closed && read.partial ? [{ ...head, body: read.partial }] : [];
      return { answers: [...answers, ...cut], complete: false };
    }
    answers.push({ ...head, body: read.body });
    at = read.next;
  }
}

const FILLER = Buffer.alloc(64 * 1024, 'x');

/** Writes the request; true when every byte went out. Stops streaming a body once an answer came, like a browser. */
async function writeRequest(socket: net.Socket, wire: Wire, received: readonly Buffer[]): Promise<boolean> {
  const write = async (bytes: Buffer) => {
    if (socket.destroyed || !socket.writable) return false;
    if (!socket.write(bytes))
      await new Promise<void>((r) => {
        socket.once('drain', r);
        socket.once('close', r);
      });
    return !socket.destroyed;
  };
  let ok = await write(wire.head);
  if (ok && wire.body.length > 0) ok = await write(wire.body);
  if (!ok || !wire.stream) return ok;
  const { chunked } = wire.stream;
  let left = wire.stream.bytes;
  while (left > 0 && received.length === 0) {
    await new Promise((r) => setImmediate(r));
    const chunk = FILLER.subarray(0, Math.min(left, FILLER.length));
    ok = await write(
      chunked
        ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
        : chunk,
    );
    if (!ok) break;
    left -= chunk.length;
  }
  if (ok && chunked && left === 0) ok = await write(Buffer.from('0\r\n\r\n'));
  return ok && left === 0;
}

/** Sends the wire bytes on a fresh connection and collects what comes back until the server closes or goes quiet. */
export function send(port: number, wire: Wire, timeoutMs: number): Promise<Outcome> {
  const began = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    /** Done writing (all of it, or as much as the server took before it answered). */
    let written = false;
    /** Every byte of the request went out. */
    let sentAll = false;
    let idle: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(idle);
      socket.destroy();
      const { answers } = parseAnswers(Buffer.concat(received), wire.method, true);
      resolve({
        answers,
        unsent: !sentAll,
        ms: performance.now() - began,
        ...(answers.length === 0 && { error: error ?? 'closed without an answer' }),
      });
    };
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
    // A kept-alive connection: done once a whole answer arrived, the request was sent, and nothing more came for a moment.
    const maybeDone = () => {
      clearTimeout(idle);
      if (!written) return;
      const { answers, complete } = parseAnswers(Buffer.concat(received), wire.method, false);
      if (answers.length > 0 && complete) idle = setTimeout(() => finish(), 300);
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      maybeDone();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code ?? err.message));
    socket.on('close', () => finish());
    socket.on('connect', () => {
      void writeRequest(socket, wire, received).then((ok) => {
        sentAll = ok;
        written = true;
        maybeDone();
      });
    });
  });
}
