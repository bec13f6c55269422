// Renderer entry: picks the transport (Electron preload or web bridge) and mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api-client.js';
import { App } from './components/app.js';
import './styles.css';

const { api, listen } = createApi();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App api={api} listen={listen} />
  </StrictMode>,
);
