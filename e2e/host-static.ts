/**
 * The production build as a class gets it: `vite build` (vite.config.ts, relative URLs) into a
 * temporary folder, served as plain static files under a sub-path by a few lines of node:http —
 * no Vite, no rewriting, nothing a static host would not do. Used by e2e/host-static.spec.ts.
 *
 * Switches for the tests: `down` answers every request 503 (the network is gone, also for a
 * service worker that would bypass Playwright's offline emulation); `version = 2` serves a
 * redeployed site (index.html changed, so the service worker's precache manifest changes);
 * under `/nosw/` the service worker's script is missing (a failed registration).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.ckpt': 'application/octet-stream', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.wasm': 'application/wasm',
};

export const SUB_PATH = '/class/rlvr-lab/';
export const NO_SW_PATH = '/nosw/';
/** What version 2 adds to index.html (the test reads it to know which version the page runs). */
export const V2_MARK = '<meta name="rlvr-test-version" content="2">';

export interface StaticSite { url: string; dir: string; buildSeconds: number; down: boolean; version: 1 | 2; requests: string[]; close(): Promise<void> }

export async function buildAndServe(root: string): Promise<StaticSite> {
  const dir = mkdtempSync(join(tmpdir(), 'rlvr-host-'));
  const t0 = performance.now();
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  const site: StaticSite = { url: '', dir, buildSeconds: (performance.now() - t0) / 1000, down: false, version: 1, requests: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    site.requests.push(path);
    if (site.down) { res.writeHead(503).end(); return; }
    const prefix = [SUB_PATH, NO_SW_PATH].find((p) => path.startsWith(p));
    if (!prefix) { res.writeHead(404).end(); return; }
    let rel = normalize(path.slice(prefix.length)).replace(/^(\.\.[/\\])+/, '');
    if (rel === '' || rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
    if (prefix === NO_SW_PATH && rel === 'sw.js') { res.writeHead(404).end(); return; }
    const file = join(dir, rel);
    let body: Buffer;
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
      body = readFileSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    if (site.version === 2 && rel === 'index.html') body = Buffer.from(body.toString('utf8').replace('<head>', `<head>\n    ${V2_MARK}`));
    if (site.version === 2 && rel === 'sw.js') {
      // the redeployed worker: index.html's revision in its precache manifest is new, as a real rebuild's would be
      body = Buffer.from(body.toString('utf8').replace(/(\{url:"index\.html",revision:")[0-9a-f]+"/, '$1feedface0000000000000000000000002"'));
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  site.url = `http://127.0.0.1:${port}`;
  site.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
    rmSync(dir, { recursive: true, force: true });
  };
  return site;
}
