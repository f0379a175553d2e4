// Entry of the side panel bundle (esbuild → dist/webview/main.js + main.css). The extension's HTML
// is expected to hold `<div id="root">`; the panel makes one if it does not, rather than stay blank.

import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import './styles.css';

function rootElement(): HTMLElement {
  const existing = document.getElementById('root');
  if (existing) return existing;
  const created = document.createElement('div');
  created.id = 'root';
  document.body.appendChild(created);
  return created;
}

createRoot(rootElement()).render(<App />);
