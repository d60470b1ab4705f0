import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { initLab } from './store/runController.ts';
import { useLab } from './store/labStore.ts';
import './ui/app.css';

void initLab(location.search);
// Test hook: browser tests read real metrics from the store (and render crafted model output through it).
(window as unknown as { __lab: { store: typeof useLab } }).__lab = { store: useLab };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
