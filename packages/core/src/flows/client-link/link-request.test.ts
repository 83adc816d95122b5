import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { messages } from '../../domain/messages.js';
import type { LinkStatusResponse } from '../../api/link-schemas.js';
import {
  canSend,
  createLinkRequestFlow,
  editForm,
  INITIAL_LINK_REQUEST,
  openDialog,
  requestBody,
  requestLine,
  toggleCategory,
  type LinkRequestFlowOptions,
} from './link-request.js';

const CATEGORIES = [
  { name: '13614-C', hasFiles: false },
  { name: 'W-2', hasFiles: true },
  { name: 'Banking Info', hasFiles: false },
];

const request = (over: Partial<NonNullable<LinkStatusResponse['request']>> = {}): LinkStatusResponse => ({
  request: {
    state: 'open',
    categories: ['13614-C'],
    sentAt: '2026-11-20T10:00:00.000Z',
    expiresAt: '2026-11-27T10:00:00.000Z',
    openedAt: null,
    doneAt: null,
    lockedUntil: null,
    filesIn: 0,
    ...over,
  },
  fromClient: [],
  answers: [],
});

describe('the volunteer’s request: transitions', () => {
  it('opens the dialog with the Missing categories ticked, 7 days, English', () => {
    expect(openDialog(INITIAL_LINK_REQUEST, CATEGORIES).form).toEqual({
      chosen: ['13614-C', 'Banking Info'],
      message: '',
      days: 7,
      language: 'en',
      saving: false,
    });
  });

  it('ticks and unticks, edits, and sends the message only when there is one', () => {
    let state = openDialog(INITIAL_LINK_REQUEST, CATEGORIES);
    state = toggleCategory(state, '13614-C');
    state = toggleCategory(state, 'W-2');
    state = editForm(state, { message: '  ', days: 14, language: 'es' });
    const form = state.form!;
    expect(requestBody(form)).toEqual({ categories: ['Banking Info', 'W-2'], days: 14, language: 'es' });
    expect(requestBody({ ...form, message: ' The W-2 please ' })).toMatchObject({
      message: 'The W-2 please',
    });
  });

  it('Send link needs a category and 1 to 14 days, and is off while sending', () => {
    const form = openDialog(INITIAL_LINK_REQUEST, CATEGORIES).form!;
    expect(canSend(form)).toBe(true);
    expect(canSend({ ...form, chosen: [] })).toBe(false);
    expect(canSend({ ...form, days: 0 })).toBe(false);
    expect(canSend({ ...form, days: 15 })).toBe(false);
    expect(canSend({ ...form, saving: true })).toBe(false);
  });

  it('edits without an open dialog change nothing', () => {
    expect(toggleCategory(INITIAL_LINK_REQUEST, 'W-2')).toBe(INITIAL_LINK_REQUEST);
    expect(editForm(INITIAL_LINK_REQUEST, { days: 3 })).toBe(INITIAL_LINK_REQUEST);
  });

  it('says what the newest request is: open (locked until when), done, closed after wrong tries', () => {
    expect(requestLine(null)).toEqual({ kind: 'none' });
    expect(requestLine({ request: null, fromClient: [], answers: [] })).toEqual({ kind: 'none' });
    expect(requestLine(request({ openedAt: '2026-11-21T10:00:00.000Z', filesIn: 2 }))).toEqual({
      kind: 'open',
      sentAt: '2026-11-20T10:00:00.000Z',
      opened: true,
      filesIn: 2,
      lockedUntil: null,
    });
    expect(requestLine(request({ lockedUntil: '2026-11-21T10:30:00.000Z' }))).toMatchObject({
      kind: 'open',
      lockedUntil: '2026-11-21T10:30:00.000Z',
    });
    expect(requestLine(request({ state: 'done', doneAt: '2026-11-22T10:00:00.000Z', filesIn: 1 }))).toEqual({
      kind: 'done',
      doneAt: '2026-11-22T10:00:00.000Z',
      filesIn: 1,
    });
    expect(requestLine(request({ state: 'locked' }))).toEqual({ kind: 'lockedForGood' });
    expect(requestLine(request({ state: 'revoked' }))).toEqual({ kind: 'none' });
  });
});

/** The three calls answering as the server would for one client; `refuse` makes the next create fail. */
function serverLike() {
  let status: LinkStatusResponse = { request: null, fromClient: [], answers: [] };
  const alerts: string[] = [];
  const confirms: string[] = [];
  let answer = true;
  const sentBodies: unknown[] = [];
  let refuse: string | null = null;
  const api: LinkRequestFlowOptions['api'] = {
    clientLinkStatus: async () => status,
    createClientLink: async ({ body }) => {
      if (refuse) throw new ApiError('http', 400, refuse);
      sentBodies.push(body);
      status = request({ categories: body.categories });
      return {
        ok: true,
        url: 'http://x/u#t',
        expiresAt: status.request!.expiresAt,
        days: 7,
        emailedTo: 'd@x.org',
        emailSent: true,
      };
    },
    revokeClientLink: async () => {
      if (status.request?.state !== 'open') throw new ApiError('http', 404, 'There is no open request.');
      status = request({ state: 'revoked' });
      return { ok: true };
    },
  };
  const options: LinkRequestFlowOptions = {
    api,
    clientId: 'c1',
    platform: {
      alert: (message) => void alerts.push(message),
      confirm: (message) => {
        confirms.push(message);
        return answer;
      },
    },
  };
  return {
    options,
    alerts,
    confirms,
    sentBodies,
    refuse: (message: string) => (refuse = message),
    answer: (ok: boolean) => (answer = ok),
  };
}

describe('the volunteer’s request: the flow', () => {
  it('sends a request, shows the link once and the open request, then revokes it', async () => {
    const server = serverLike();
    const flow = createLinkRequestFlow(server.options);
    await flow.send({ type: 'load' });
    expect(requestLine(flow.getState().status)).toEqual({ kind: 'none' });
    await flow.send({ type: 'openDialog', categories: CATEGORIES });
    await flow.send({ type: 'toggle', name: 'Banking Info' });
    await flow.send({ type: 'setMessage', message: 'Thanks' });
    await flow.send({ type: 'send' });
    expect(server.sentBodies).toEqual([
      { categories: ['13614-C'], days: 7, language: 'en', message: 'Thanks' },
    ]);
    expect(flow.getState()).toMatchObject({ form: null, sent: { url: 'http://x/u#t' } });
    expect(requestLine(flow.getState().status)).toMatchObject({ kind: 'open', opened: false });
    await flow.send({ type: 'closeSent' });
    expect(flow.getState().sent).toBeNull();
    server.answer(false);
    await flow.send({ type: 'revoke' });
    expect(requestLine(flow.getState().status)).toMatchObject({ kind: 'open' });
    expect(flow.getState().revoked).toBe(false);
    server.answer(true);
    await flow.send({ type: 'revoke' });
    expect(server.confirms).toEqual([messages.revokeLinkConfirm, messages.revokeLinkConfirm]);
    expect(requestLine(flow.getState().status)).toEqual({ kind: 'none' });
    expect(flow.getState().revoked).toBe(true);
    await flow.send({ type: 'openDialog', categories: CATEGORIES });
    expect(flow.getState().revoked).toBe(false);
    expect(server.alerts).toEqual([]);
  });

  it('a refused request alerts and keeps the dialog as filled in', async () => {
    const server = serverLike();
    const flow = createLinkRequestFlow(server.options);
    await flow.send({ type: 'openDialog', categories: CATEGORIES });
    server.refuse('Choose at least one document type.');
    await flow.send({ type: 'send' });
    expect(server.alerts).toEqual(['Choose at least one document type.']);
    expect(flow.getState().form).toMatchObject({ chosen: ['13614-C', 'Banking Info'], saving: false });
  });

  it('a revoke the server refuses alerts, and the request is read again', async () => {
    const server = serverLike();
    const flow = createLinkRequestFlow(server.options);
    await flow.send({ type: 'revoke' });
    expect(server.alerts).toEqual(['There is no open request.']);
    expect(flow.getState().status).toEqual({ request: null, fromClient: [], answers: [] });
  });
});
