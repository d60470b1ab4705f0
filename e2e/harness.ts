// A blank page for browser tests. Tests load engine modules straight from the Vite dev
// server inside page.evaluate, e.g. `await import('/src/gpu/engine.ts')`, so no test needs
// to edit this file.
document.getElementById('status')!.textContent = 'ready';
