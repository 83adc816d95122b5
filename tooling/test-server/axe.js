import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page as it is now, within the `include` selectors or the whole document.
 * axe runs in the page, injected once per document: @axe-core/playwright injects it again and opens a
 * blank page for every check, over a second each. `iframes: false`: our screens' only frame is the
 * document viewer's, which holds Chromium's own PDF viewer; axe still checks the frame element itself.
 * @param {{ evaluate(expression: string): Promise<unknown> }} page
 * @param {string[]} [include]
 */
export async function axeViolations(page, include) {
  if (!(await page.evaluate(`'axe' in window`))) await page.evaluate(axeSource);
  const context = include ? JSON.stringify({ include }) : 'document';
  const options = `{ iframes: false, resultTypes: ['violations'] }`;
  return /** @type {Promise<import('axe-core').Result[]>} */ (
    page.evaluate(`window.axe.run(${context}, ${options}).then((r) => r.violations)`)
  );
}
