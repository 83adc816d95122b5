/**
 * What must hold of every answer, as a table of named checks. An answer is judged by the first check
 * it fails, in this order, so each failure is reported once under the most basic thing it broke.
 */
import http from 'node:http';
import { isErrorCode } from '@vita-docs/core';
import type { Answer, Outcome } from './raw-client.js';

export type Failure = '5xx' | 'error not JSON' | 'error shape' | 'error text not for people' | 'no answer';

/** An answer as a check sees it: its status, type, the request's method, and its body as JSON. */
interface Seen {
  answer: Answer;
  method: string;
  /** The parsed body of a refusal (undefined when it is not JSON). */
  parsed: () => unknown;
}

export interface AnswerCheck {
  /** What must hold, in words (for the reader of the table; the failure names the report's group). */
  holds: string;
  failure: Failure;
  fails: (seen: Seen) => boolean;
}

/** HTTP reason phrases ("Bad Request"), library defaults ("Invalid input: expected string…") and internals: not something a person can act on. */
const REASON_PHRASES = new Set(Object.values(http.STATUS_CODES));
const DEVELOPER_TEXT =
  /^(Invalid input|Too big|Too small|Invalid (string|option|element|key|union|format))|expected \w+, received|FST_ERR|\[object Object\]|\bat .+:\d+:\d+\)?$|'Content-Type' header/;

const refusal = ({ answer }: Seen) => answer.status >= 400;
/** A HEAD answer has the headers of the GET and no body: its body is not judged. */
const refusalBody = (seen: Seen) => refusal(seen) && seen.method !== 'HEAD';
const field = (seen: Seen, name: string): unknown => (seen.parsed() as Record<string, unknown>)[name];
const errorText = (seen: Seen) => String(field(seen, 'error'));

export const ANSWER_CHECKS: readonly AnswerCheck[] = [
  {
    holds: 'no 5xx, and a status line at all',
    failure: '5xx',
    fails: ({ answer }) => answer.status >= 500 || answer.status === 0,
  },
  {
    holds: 'a refusal is application/json',
    failure: 'error not JSON',
    fails: (seen) =>
      refusal(seen) && !/^application\/json\b/i.test(seen.answer.headers.get('content-type') ?? ''),
  },
  {
    holds: 'a refusal is a JSON object',
    failure: 'error shape',
    fails: (seen) => {
      if (!refusalBody(seen)) return false;
      const parsed = seen.parsed();
      return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
    },
  },
  {
    holds: 'its `error` is a text that is not blank',
    failure: 'error shape',
    fails: (seen) =>
      refusalBody(seen) && (typeof field(seen, 'error') !== 'string' || errorText(seen).trim() === ''),
  },
  {
    holds: 'its `code` is one of core’s ERROR_CODES',
    failure: 'error shape',
    fails: (seen) => refusalBody(seen) && !isErrorCode(field(seen, 'code')),
  },
  {
    holds: 'it carries nothing but `error` and `code`',
    failure: 'error shape',
    fails: (seen) =>
      refusalBody(seen) &&
      Object.keys(seen.parsed() as object).some((key) => key !== 'error' && key !== 'code'),
  },
  {
    holds: 'its text is not an HTTP reason phrase ("Bad Request")',
    failure: 'error text not for people',
    fails: (seen) => refusalBody(seen) && REASON_PHRASES.has(errorText(seen)),
  },
  {
    holds: 'its text is not a library’s or a developer’s wording',
    failure: 'error text not for people',
    fails: (seen) => refusalBody(seen) && DEVELOPER_TEXT.test(errorText(seen)),
  },
];

/** What is wrong with one answer, if anything: the first of `checks` it fails. */
export function judge(
  answer: Answer,
  method: string,
  checks: readonly AnswerCheck[] = ANSWER_CHECKS,
): Failure | null {
  let parsed: { value: unknown } | undefined;
  const seen: Seen = {
    answer,
    method,
    parsed: () => {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse(answer.body.toString('utf8')) as unknown };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value;
    },
  };
  return checks.find((check) => check.fails(seen))?.failure ?? null;
}

/** The limits beyond which the server may refuse a request before reading all of it (headers, JSON bodies). */
const HEAD_LIMIT = 16 * 1024;
const JSON_BODY_LIMIT = 64 * 1024;

/**
 * An oversized request may be refused before it is all sent, and the reset of the rest can cost the
 * answer: counted, not a failure. Anything else ending without an answer is one.
 */
export function isCutOff(wire: { head: Buffer; body: Buffer; stream?: unknown }, outcome: Outcome): boolean {
  const oversized =
    wire.head.length > HEAD_LIMIT || wire.body.length > JSON_BODY_LIMIT || wire.stream !== undefined;
  return (
    outcome.answers.length === 0 &&
    outcome.unsent &&
    oversized &&
    /EPIPE|ECONNRESET/.test(outcome.error ?? '')
  );
}
