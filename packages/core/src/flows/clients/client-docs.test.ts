import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { createRecordingDialogs, createTestUser } from '../../testing/index.js';
import { deleteCategoryConfirm } from '../../domain/messages.js';
import { canAddType, createClientDocsFlow } from './client-docs.js';

const CLIENT = {
  clientId: 'client-0001',
  firstName: 'Ada',
  lastName: 'Client',
  email: 'ada@client.example.org',
  phone: '555-0100',
  hasPin: false,
  createdBy: 'vera@example.org',
  createdAt: '2025-01-15T12:00:00.000Z',
  submittedAt: null,
};

/** A server with the five fixed categories, one custom one, and files in two of them. */
function setup(actor = createTestUser({ email: 'vera@example.org' })) {
  const types = [
    '13614-C',
    'Michigan/Locality Intake',
    'License/Other Identification',
    'Digital Consent Form',
    'Banking Info',
    'W-2 (Acme)',
  ];
  const api = {
    docTypes: vi.fn(async () => ({ types: [...types] })),
    docStatus: vi.fn(async () =>
      Object.fromEntries(types.map((t) => [t, t === '13614-C' || t === 'W-2 (Acme)'])),
    ),
    addDocType: vi.fn(async ({ body }: { body: { template: string; note?: string } }) => {
      const name = body.note ? `${body.template} (${body.note})` : body.template;
      types.push(name);
      return { ok: true as const, docType: name };
    }),
    deleteDocType: vi.fn(async ({ query }: { query: { docType: string } }) => {
      types.splice(types.indexOf(query.docType), 1);
      return { ok: true as const };
    }),
    listClients: vi.fn(async () => ({ items: [CLIENT] })),
    listAllClients: vi.fn(async () => ({ items: [CLIENT] })),
  };
  const platform = createRecordingDialogs();
  const flow = createClientDocsFlow({
    api,
    platform,
    clientId: CLIENT.clientId,
    actor,
  });
  return { api, platform, flow };
}

describe('Client Documents page', () => {
  it('lists every category in order, Ready or Missing, with Delete Type only on custom ones', async () => {
    const { flow, api } = setup();
    await flow.send({ type: 'refresh' });
    const state = flow.getState();
    expect(state.status).toBe('ready');
    expect(state.client?.firstName).toBe('Ada');
    expect(state.categories.map((c) => [c.name, c.hasFiles ? 'Ready' : 'Missing', c.custom])).toEqual([
      ['13614-C', 'Ready', false],
      ['Michigan/Locality Intake', 'Missing', false],
      ['License/Other Identification', 'Missing', false],
      ['Digital Consent Form', 'Missing', false],
      ['Banking Info', 'Missing', false],
      ['W-2 (Acme)', 'Ready', true],
    ]);
    // A volunteer finds the client among their own.
    expect(api.listClients).toHaveBeenCalled();
    expect(api.listAllClients).not.toHaveBeenCalled();
  });

  it('a stored upload turns its row Ready at once, also when a load under way answers from before it', async () => {
    const { flow, api } = setup();
    await flow.send({ type: 'refresh' });
    const status = (name: string) => flow.getState().categories.find((c) => c.name === name)?.hasFiles;
    await flow.send({ type: 'stored', docType: 'Banking Info' });
    expect(status('Banking Info')).toBe(true);
    expect(api.docStatus).toHaveBeenCalledTimes(1);
    // A reload whose answer was read before the next file landed: the landed file still counts.
    let answer: (value: Record<string, boolean>) => void = () => undefined;
    api.docStatus.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const loading = flow.send({ type: 'refresh' });
    await flow.send({ type: 'stored', docType: 'Digital Consent Form' });
    answer({ '13614-C': true });
    await loading;
    expect(status('Digital Consent Form')).toBe(true);
    expect(status('Banking Info')).toBe(false);
  });

  it('an admin finds the client among all clients', async () => {
    const { flow, api } = setup(createTestUser({ email: 'ana@example.org', isAdmin: true }));
    await flow.send({ type: 'refresh' });
    expect(api.listAllClients).toHaveBeenCalled();
  });

  it('a client of someone else: the load error is alerted and nothing is shown', async () => {
    const { flow, api, platform } = setup();
    api.docStatus.mockRejectedValueOnce(
      new ApiError('http', 403, 'This client belongs to another volunteer.'),
    );
    await flow.send({ type: 'refresh' });
    expect(flow.getState()).toMatchObject({ status: 'error', categories: [], client: null });
    expect(platform.alerts).toEqual(['This client belongs to another volunteer.']);
  });

  it('Add is disabled until a template is chosen; the note becomes a suffix', async () => {
    const { flow, api } = setup();
    await flow.send({ type: 'refresh' });
    await flow.send({ type: 'openAdd' });
    expect(canAddType(flow.getState())).toBe(false);
    await flow.send({ type: 'confirmAdd' });
    expect(api.addDocType).not.toHaveBeenCalled();
    await flow.send({ type: 'chooseTemplate', template: 'not a template' });
    expect(canAddType(flow.getState())).toBe(false);
    await flow.send({ type: 'chooseTemplate', template: '1099-INT' });
    await flow.send({ type: 'changeNote', note: '  Credit Union ' });
    expect(canAddType(flow.getState())).toBe(true);
    await flow.send({ type: 'confirmAdd' });
    expect(api.addDocType).toHaveBeenCalledWith({
      params: { id: CLIENT.clientId },
      body: { template: '1099-INT', note: 'Credit Union' },
    });
    expect(flow.getState().adding).toBeNull();
    expect(flow.getState().categories.at(-1)).toEqual({
      name: '1099-INT (Credit Union)',
      hasFiles: false,
      custom: true,
    });
  });

  it('an empty note is left out; a refused add keeps the dialog open with the alert', async () => {
    const { flow, api, platform } = setup();
    await flow.send({ type: 'refresh' });
    await flow.send({ type: 'openAdd' });
    await flow.send({ type: 'chooseTemplate', template: 'W-2' });
    await flow.send({ type: 'changeNote', note: '   ' });
    api.addDocType.mockRejectedValueOnce(new ApiError('http', 400, '“W-2” already exists for this client.'));
    await flow.send({ type: 'confirmAdd' });
    expect(api.addDocType).toHaveBeenCalledWith({
      params: { id: CLIENT.clientId },
      body: { template: 'W-2' },
    });
    expect(platform.alerts).toEqual(['“W-2” already exists for this client.']);
    expect(flow.getState().adding).toMatchObject({ template: 'W-2', saving: false });
    await flow.send({ type: 'cancelAdd' });
    expect(flow.getState().adding).toBeNull();
  });

  it('Delete Type asks the exact question; No keeps it, Yes deletes and reloads', async () => {
    const { flow, api, platform } = setup();
    await flow.send({ type: 'refresh' });
    platform.answerConfirms(false);
    await flow.send({ type: 'deleteType', name: 'W-2 (Acme)' });
    expect(platform.confirms).toEqual([deleteCategoryConfirm('W-2 (Acme)')]);
    expect(api.deleteDocType).not.toHaveBeenCalled();
    await flow.send({ type: 'deleteType', name: 'W-2 (Acme)' });
    expect(api.deleteDocType).toHaveBeenCalledWith({
      params: { id: CLIENT.clientId },
      query: { docType: 'W-2 (Acme)' },
    });
    expect(flow.getState().categories.map((c) => c.name)).not.toContain('W-2 (Acme)');
  });

  it('the five fixed categories are never deleted', async () => {
    const { flow, api, platform } = setup();
    await flow.send({ type: 'refresh' });
    await flow.send({ type: 'deleteType', name: 'Banking Info' });
    expect(platform.confirms).toEqual([]);
    expect(api.deleteDocType).not.toHaveBeenCalled();
  });

  it('after Reassign Client the page shows the new owner', async () => {
    const { flow } = setup(createTestUser({ email: 'ana@example.org', isAdmin: true }));
    await flow.send({ type: 'refresh' });
    await flow.send({ type: 'reassigned', email: 'wendy@example.org' });
    expect(flow.getState().client?.createdBy).toBe('wendy@example.org');
  });
});
