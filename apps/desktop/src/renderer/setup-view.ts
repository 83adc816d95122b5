/** The settings screen, shown on first run (nothing set) and from the Settings button. */
import type { DesktopBridge, DesktopSettings } from '../shared/bridge.js';
import { h } from './dom.js';

/** Renders the settings form; `onSaved` runs with what main saved. */
export function renderSetup(
  bridge: DesktopBridge,
  current: DesktopSettings,
  onSaved: (settings: DesktopSettings) => void,
): HTMLElement {
  const server = h('input', { id: 'server', type: 'url', required: true, placeholder: 'https://vita.example.org' });
  server.value = current.serverUrl ?? '';
  const folder = h('input', { id: 'folder', readonly: true, required: true });
  folder.value = current.watchedFolder ?? '';
  const move = h('input', { type: 'radio', name: 'after', value: 'move', checked: current.afterUpload === 'move' });
  const remove = h('input', { type: 'radio', name: 'after', value: 'delete', checked: current.afterUpload === 'delete' });
  const message = h('p', { role: 'alert', class: 'error' });

  const browse = async (): Promise<void> => {
    const chosen = await bridge.chooseFolder();
    if (chosen) folder.value = chosen;
  };
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    message.textContent = '';
    try {
      const saved = await bridge.saveSettings({
        serverUrl: server.value,
        watchedFolder: folder.value,
        afterUpload: remove.checked ? 'delete' : 'move',
      });
      onSaved(saved);
    } catch (error) {
      // Electron prefixes remote errors with the channel; the person only needs the reason.
      message.textContent = (error instanceof Error ? error.message : String(error)).replace(/^Error invoking remote method '[^']+': (\w*Error: )?/, '');
    }
  };

  return h(
    'form',
    { class: 'setup', onsubmit: (event) => void save(event) },
    h('h2', {}, current.serverUrl === null ? 'Set up this intake desk' : 'Desk settings'),
    h('label', { for: 'server' }, 'Server address'),
    server,
    h('label', { for: 'folder' }, 'Scanner folder'),
    h('div', { class: 'row' }, folder, h('button', { type: 'button', onclick: () => void browse() }, 'Browse…')),
    h(
      'fieldset',
      {},
      h('legend', {}, 'After a scan is uploaded'),
      h('label', {}, move, ' Move it to the “uploaded” folder'),
      h('label', {}, remove, ' Delete it'),
    ),
    message,
    h('button', { type: 'submit' }, 'Save'),
  );
}
