import { describe, expect, it } from 'vitest';
import { messages } from '../../domain/messages.js';
import { createManualClock, createRecordingDialogs } from '../../testing/index.js';
import { createResendFlow } from './resend.js';

function setup(answer: () => Promise<{ emailSent?: boolean }> = async () => ({ emailSent: true })) {
  const clock = createManualClock(1_000_000);
  const platform = createRecordingDialogs();
  let sends = 0;
  const flow = createResendFlow({
    resend: () => {
      sends += 1;
      return answer();
    },
    clock,
    platform,
  });
  return { clock, platform, flow, sends: () => sends };
}

describe('resend cooldown', () => {
  it('after a successful resend the button is disabled for 30 s, counting down', async () => {
    const { clock, platform, flow } = setup();
    await flow.send({ type: 'resend' });
    expect(platform.alerts).toEqual([messages.resendSucceeded]);
    expect(flow.getState()).toEqual({ status: 'coolingDown', secondsLeft: 30, label: 'Resend in 30s' });

    clock.advance(1000);
    expect(flow.getState()).toMatchObject({ label: 'Resend in 29s' });
    clock.advance(28_500);
    expect(flow.getState()).toMatchObject({ label: 'Resend in 1s' });
    clock.advance(499);
    expect(flow.getState()).toMatchObject({ label: 'Resend in 1s' });
    clock.advance(1);
    expect(flow.getState()).toEqual({ status: 'ready' });
    expect(clock.pendingTimers()).toBe(0);
  });

  it('presses during the cooldown do nothing', async () => {
    const { clock, flow, sends } = setup();
    await flow.send({ type: 'resend' });
    clock.advance(10_000);
    await flow.send({ type: 'resend' });
    expect(sends()).toBe(1);
    clock.advance(20_000);
    await flow.send({ type: 'resend' });
    expect(sends()).toBe(2);
  });

  it('a failed resend alerts the exact text and starts no cooldown', async () => {
    const { platform, flow } = setup(() => Promise.reject(new Error('offline')));
    await flow.send({ type: 'resend' });
    expect(platform.alerts).toEqual([messages.resendFailed]);
    expect(flow.getState()).toEqual({ status: 'ready' });
  });

  it('emailSent false counts as a failed resend', async () => {
    const { platform, flow } = setup(async () => ({ emailSent: false }));
    await flow.send({ type: 'resend' });
    expect(platform.alerts).toEqual([messages.resendFailed]);
    expect(flow.getState().status).toBe('ready');
  });

  it('dispose stops the countdown timer', async () => {
    const { clock, flow } = setup();
    await flow.send({ type: 'resend' });
    flow.dispose();
    expect(clock.pendingTimers()).toBe(0);
  });
});
