import type { Dialog, Page } from '@playwright/test';
import { WAIT_MS } from './browser.js';

/** One alert or confirm as the person saw it. */
export interface SeenDialog {
  type: string;
  message: string;
}

/**
 * Answers the page's alerts and confirms (window.alert / window.confirm through the platform port)
 * and keeps them in order, so a test reads them one by one with {@link next}.
 */
export class DialogLog {
  private readonly seen: SeenDialog[] = [];
  private read = 0;
  private readonly answers: boolean[] = [];
  private waiters: (() => void)[] = [];

  constructor(page: Page) {
    page.on('dialog', (dialog) => void this.handle(dialog));
  }

  /** The next confirm is answered OK (true) or Cancel (false); unscripted confirms answer OK. */
  answerNextConfirm(ok: boolean): void {
    this.answers.push(ok);
  }

  /** The next dialog not read yet, waiting for it to open. */
  async next(timeoutMs = WAIT_MS): Promise<SeenDialog> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.seen.length) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `No dialog opened within ${timeoutMs} ms (seen so far: ${JSON.stringify(this.seen)})`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.seen[this.read++]!;
  }

  /** Dialogs opened but not read by the test yet. */
  unread(): SeenDialog[] {
    return this.seen.slice(this.read);
  }

  private async handle(dialog: Dialog): Promise<void> {
    const seen = { type: dialog.type(), message: dialog.message() };
    const ok = seen.type === 'confirm' ? (this.answers.shift() ?? true) : true;
    // Answer first: the test goes on as soon as it reads the dialog, and the page must not be blocked then.
    await (ok ? dialog.accept() : dialog.dismiss());
    this.seen.push(seen);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
