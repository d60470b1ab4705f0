import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

// RLVR_TEST_SERVER: the browser tests' server. No HMR and no file watching, so an edit made
// while tests run never reloads a page mid-test; dependencies are pre-bundled up front so the
// first dynamic import cannot trigger a re-optimisation reload either.
const testServer = !!process.env.RLVR_TEST_SERVER;

export default defineConfig({
  plugins: [react()],
  server: { fs: { allow: ['.'] }, hmr: testServer ? false : undefined, watch: testServer ? null : undefined },
  optimizeDeps: {
    entries: ['index.html', 'e2e/harness.html'],
    include: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'zustand', 'recharts', 'katex'],
  },
  build: {
    target: 'es2022',
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'index.html') } },
  },
});
