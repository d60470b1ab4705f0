import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { resolve } from 'node:path';

// RLVR_TEST_SERVER: the browser tests' server. No HMR and no file watching, so an edit made
// while tests run never reloads a page mid-test; dependencies are pre-bundled up front so the
// first dynamic import cannot trigger a re-optimisation reload either.
const testServer = !!process.env.RLVR_TEST_SERVER;

export default defineConfig(({ command }) => ({
  // the production build uses relative URLs (assets, checkpoints, task specs, the service worker),
  // so one build works from any path: https://host/, https://host/rlvr-lab/, a folder on a USB stick's server
  base: command === 'build' ? './' : '/',
  plugins: [
    react(),
    // offline after the first visit: a Workbox service worker precaches the app (the WGSL is inlined
    // in the JS), the shipped checkpoints and the task specs. Production build only (the dev server and
    // the browser tests on it never register one). 'prompt': a new deployment waits until the page's
    // notice is accepted (src/lab/serviceWorker.ts), so one page never mixes two versions' files.
    VitePWA({
      registerType: 'prompt',
      injectRegister: null, // registered by src/lab/serviceWorker.ts, which reports failures on the page
      manifest: false,
      devOptions: { enabled: false },
      workbox: {
        globPatterns: ['**/*.{js,css,html,json,ckpt,wasm,woff2}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        navigateFallback: 'index.html',
      },
    }),
  ],
  server: { fs: { allow: ['.'] }, hmr: testServer ? false : undefined, watch: testServer ? null : undefined },
  optimizeDeps: {
    entries: ['index.html', 'e2e/harness.html'],
    include: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'zustand', 'recharts', 'katex'],
  },
  // the CPU engine's workers (src/worker/) are ES modules: they share the engine's chunks with the page,
  // and the service worker precaches them with every other script (globPatterns above)
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'index.html') } },
  },
}));
