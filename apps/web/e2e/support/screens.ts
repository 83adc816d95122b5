import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { axeViolations } from '@vita-docs/test-server/axe';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE } from './browser.js';

const screenshots = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test-results/screenshots',
);

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
 * violations, and a full-page screenshot of each saved as `test-results/screenshots/<name>-<size>.png`.
 * The caller first waits for what the person should see, so the screen is settled.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await mkdir(screenshots, { recursive: true });
  const original = page.viewportSize();
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    const violations = await axeViolations(page);
    if (violations.length)
      throw new Error(`axe-core on "${name}" at ${size} size:\n${violations.map(describe).join('\n')}`);
    await page.screenshot({ path: path.join(screenshots, `${name}-${size}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
