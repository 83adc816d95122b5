/** Renderer entry: the desk settings, then the shared screens (see desk-app.tsx). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DeskApp } from './desk-app.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const bridge = window.vitaDesktop;

if (bridge) {
  const initial = await bridge.getSettings();
  createRoot(root).render(
    <StrictMode>
      <DeskApp bridge={bridge} initial={initial} />
    </StrictMode>,
  );
} else {
  root.textContent = 'This page runs inside the VITA desktop app.';
}
