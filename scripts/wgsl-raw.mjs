// Node module hooks for what Vite does in the browser and in vitest: `import src from 'x.wgsl?raw'`
// gives the file's text. Registered by `node --import ./scripts/wgsl-raw.mjs` (npm run train/bench
// with --backend dawn run the WGSL engine in Node through Dawn).
import { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent(`
import { readFile } from 'node:fs/promises';
export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('?raw')) return next(url, context);
  const text = await readFile(new URL(url.slice(0, -4)), 'utf8');
  return { format: 'module', source: 'export default ' + JSON.stringify(text) + ';', shortCircuit: true };
}
`));
