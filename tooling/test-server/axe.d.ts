import type { Result } from 'axe-core';

/** A page that evaluates script text, as playwright-core's `Page` does. */
export interface ScriptPage {
  evaluate(expression: string): Promise<unknown>;
}

/**
 * axe-core's violations on the page as it is now, within the `include` CSS selectors or the whole
 * document; axe is injected once per document and runs in the page.
 */
export declare function axeViolations(page: ScriptPage, include?: string[]): Promise<Result[]>;
