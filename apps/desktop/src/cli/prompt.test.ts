import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPrompter } from './prompt.js';

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { input, output, written: () => written };
}

describe('prompts on standard input', () => {
  it('answer in order when the answers are piped in all at once, before they are asked', async () => {
    const { input, output, written } = streams();
    const prompter = createPrompter(input, output);
    input.write('my pin\n123456\n');
    expect(await prompter.ask('PIN: ', { secret: true })).toBe('my pin');
    expect(await prompter.ask('Code: ')).toBe('123456');
    prompter.close();
    expect(written()).toBe('PIN: \nCode: \n');
  });

  it('wait for an answer that comes later, and fail clearly when input ends first', async () => {
    const { input, output } = streams();
    const prompter = createPrompter(input, output);
    const pin = prompter.ask('PIN: ');
    input.write('later\n');
    expect(await pin).toBe('later');
    const code = prompter.ask('Code: ');
    input.end();
    await expect(code).rejects.toThrow('Standard input ended');
  });
});
