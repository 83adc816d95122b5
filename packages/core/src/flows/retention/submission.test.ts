import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { SubmissionStatus } from '../../api/schemas.js';
import { createRecordingDialogs } from '../../testing/index.js';
import { createSubmissionFlow } from './submission.js';

const open: SubmissionStatus = { submittedAt: null, deleteOn: null, canUndo: false, retentionDays: 30 };
const submitted: SubmissionStatus = {
  submittedAt: '2026-03-01T10:00:00.000Z',
  deleteOn: '2026-03-31T00:00:00.000Z',
  canUndo: true,
  retentionDays: 30,
};

function setup() {
  let current = open;
  const api = {
    submission: vi.fn(async () => current),
    submitClient: vi.fn(async () => {
      current = submitted;
      return { ok: true as const, submittedAt: submitted.submittedAt ?? '' };
    }),
    unsubmitClient: vi.fn(async () => {
      current = open;
      return open;
    }),
  };
  const platform = createRecordingDialogs();
  return { api, platform, flow: createSubmissionFlow({ api, platform, clientId: 'c1' }) };
}

describe('submission line', () => {
  it('Mark as submitted asks first, saying what it means; Cancel changes nothing', async () => {
    const { api, platform, flow } = setup();
    await flow.send({ type: 'load' });
    platform.answerConfirms(false);
    await flow.send({ type: 'submit', clientName: 'Ada Lovelace' });
    expect(platform.confirms).toEqual([
      'Mark Ada Lovelace as submitted? This records that their return was filed. The retention rule deletes their documents 30 days after that; until then you can undo it.',
    ]);
    expect(api.submitClient).not.toHaveBeenCalled();
    await flow.send({ type: 'submit', clientName: 'Ada Lovelace' });
    expect(api.submitClient).toHaveBeenCalledWith({ params: { id: 'c1' } });
    expect(flow.getState()).toEqual({ status: 'ready', submission: submitted, busy: false });
  });

  it('Undo submitted goes back; a refusal is alerted and the line shows what the server says', async () => {
    const { api, platform, flow } = setup();
    await flow.send({ type: 'load' });
    await flow.send({ type: 'submit', clientName: 'Ada Lovelace' });
    await flow.send({ type: 'undo' });
    expect(flow.getState()).toMatchObject({ submission: open });
    api.unsubmitClient.mockRejectedValueOnce(new ApiError('http', 409, 'This client is not submitted.'));
    await flow.send({ type: 'undo' });
    expect(platform.alerts).toEqual(['This client is not submitted.']);
    expect(flow.getState()).toMatchObject({ status: 'ready', busy: false });
  });
});
