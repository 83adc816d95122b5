import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { axeViolations } from '@vita-docs/test-server/axe';
import type { Page } from '@playwright/test';
import { DESKTOP, PHONE } from './browser.js';

const failures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-results/failures');

/** An axe violation in a form that reads well in a failed assertion. */
function describe(violation: {
  id: string;
  help: string;
  nodes: { target: unknown; failureSummary?: string }[];
}) {
  return `${violation.id}: ${violation.help} — ${violation.nodes
    .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`)
    .join('; ')}`;
}

/**
 * Checks the screen as it is now at phone (390×844) and desktop (1280×800) size: no axe-core
 * violations. Only a failing check keeps a full-page screenshot, as
 * `test-results/failures/<name>-<size>.png`: nothing compares the passing ones.
 * The caller first waits for what the person should see, so the screen is settled.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    const violations = await axeViolations(page);
    if (violations.length) {
      await mkdir(failures, { recursive: true });
      await page.screenshot({ path: path.join(failures, `${name}-${size}.png`), fullPage: true });
      throw new Error(`axe-core on "${name}" at ${size} size:\n${violations.map(describe).join('\n')}`);
    }
  }
  if (original) await page.setViewportSize(original);
}
