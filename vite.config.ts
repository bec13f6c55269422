// Vite build of the renderer (one UI for Electron and web mode): root src/renderer, output dist/renderer.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { RENDERER_CSP_META } from './src/shared/csp';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Content-Security-Policy meta tag for the built page (dev mode needs Vite's inline HMR preamble, so only on build). */
function contentSecurityPolicy(): Plugin {
  const policy = RENDERER_CSP_META;
  return {
    name: 'sargable-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: policy },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root: path.join(here, 'src/renderer'),
  // Relative asset URLs so the same build loads from file:// in Electron and from the web bridge.
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  build: {
    outDir: path.join(here, 'dist/renderer'),
    emptyOutDir: true,
    target: 'es2022',
    // Monaco's editor core is one large chunk by nature; warn only well above it.
    chunkSizeWarningLimit: 4096,
    // Plugin timing warnings only measure how busy the build machine is.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', strictPort: false },
});
