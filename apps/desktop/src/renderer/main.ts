/**
 * Renderer entry. Until packages/ui ships its screens this shows the first-run settings and the
 * scanner inbox; the API transport for `createApiClient` is ready in `bridge-fetch.ts`.
 */
import type { DesktopBridge, DesktopSettings, InboxState } from '../shared/bridge.js';
import { h } from './dom.js';
import { acceptDrops, renderInbox } from './inbox-view.js';
import { renderSetup } from './setup-view.js';

const root = document.getElementById('root');

function show(...content: HTMLElement[]): void {
  root?.replaceChildren(...content);
}

async function main(bridge: DesktopBridge): Promise<void> {
  let settings = await bridge.getSettings();
  let inbox: InboxState = await bridge.getInbox();
  let dropNote = '';
  let editing = settings.serverUrl === null || settings.watchedFolder === null;

  const render = (): void => {
    if (editing) {
      show(renderSetup(bridge, settings, (saved: DesktopSettings) => {
        settings = saved;
        editing = false;
        render();
      }));
      return;
    }
    const header = h(
      'header',
      {},
      h('h1', {}, 'VITA Document Collector'),
      h('span', { class: 'muted' }, settings.serverUrl ?? ''),
      h('button', { type: 'button', onclick: () => { editing = true; render(); } }, 'Settings'),
    );
    const dropZone = h('div', { class: 'drop' }, dropNote || 'Drop files or folders here to queue them.');
    acceptDrops(dropZone, bridge, (result) => {
      dropNote = `${result.files.length} file(s) ready to queue${result.skipped.length ? `, ${result.skipped.length} skipped` : ''}${result.truncated ? ' (limit reached)' : ''}.`;
      render();
    });
    show(header, renderInbox(inbox), dropZone);
  };

  bridge.onInboxChanged((state) => {
    inbox = state;
    if (!editing) render();
  });
  render();
}

if (window.vitaDesktop) {
  void main(window.vitaDesktop);
} else {
  show(h('p', {}, 'This page runs inside the VITA desktop app.'));
}
