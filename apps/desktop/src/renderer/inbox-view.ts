/**
 * The interim "Scanner inbox" panel and drop zone. The shared packages/ui category screen will
 * host the real panel (add scans to the queue, normal upload flow); this one lists what waits.
 */
import { formatBytes } from '@vita-docs/core';
import type { DesktopBridge, DropResult, InboxState } from '../shared/bridge.js';
import { h } from './dom.js';

/** Renders the inbox list for `state`. */
export function renderInbox(state: InboxState): HTMLElement {
  const rows = state.scans.map((scan) =>
    h(
      'li',
      { 'data-status': scan.status },
      h('strong', {}, scan.relPath),
      ` ${formatBytes(scan.size)} · ${new Date(scan.mtimeMs).toLocaleString()}`,
      scan.duplicateOf && h('span', { class: 'tag' }, ` Duplicate of ${scan.duplicateOf.name}${scan.duplicateOf.uploaded ? ' (uploaded)' : ''}`),
      scan.status === 'uploading' && h('span', { class: 'tag' }, ' Uploading…'),
      scan.error && h('span', { class: 'error' }, ` ${scan.error}`),
    ),
  );
  return h(
    'section',
    { class: 'inbox', 'aria-label': 'Scanner inbox' },
    h('h2', {}, 'Scanner inbox'),
    h('p', { class: 'muted' }, state.folder ? `Watching ${state.folder}` : 'No scanner folder set.'),
    state.error && h('p', { role: 'alert', class: 'error' }, state.error),
    rows.length ? h('ul', {}, ...rows) : h('p', {}, 'No scans waiting.'),
  );
}

/** Makes `target` accept dropped files and folders; `onDrop` gets what main expanded them to. */
export function acceptDrops(target: HTMLElement, bridge: DesktopBridge, onDrop: (result: DropResult) => void): void {
  target.addEventListener('dragover', (event) => {
    event.preventDefault();
    target.classList.add('dragging');
  });
  target.addEventListener('dragleave', () => target.classList.remove('dragging'));
  target.addEventListener('drop', (event) => {
    event.preventDefault();
    target.classList.remove('dragging');
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length) void bridge.expandDrop(files).then(onDrop);
  });
}
