// Packs what `scripts/device-check` needs on a machine with no network and maybe no Node into
// .device/ (git-ignored; the device tool carries it): the check as one bundled file, the
// `webgpu` package's Linux x64 Dawn binary, the Vulkan loader from Debian's chromium (for a
// machine whose image has none) and, unless --no-node, this Node binary compressed with xz.
// About 33 MB in all (the device tool carries at most 64 MiB with the working tree).
//
//   node scripts/device-pack.mjs [--no-node]
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';

const out = '.device';
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'node_modules/webgpu/dist/linux-x64'), { recursive: true });
mkdirSync(join(out, 'lib'), { recursive: true });

// the check and the bench in one ES module; the shaders' `?raw` imports become strings
await build({
  // the check and bench, and the lessons table (`scripts/device-check lessons …`: a GPU machine's cores and its GPU judge the lessons' seeds)
  entryPoints: { 'device-main': 'scripts/device-main.ts', 'lessons-table': 'scripts/lessons-table.ts' },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['webgpu'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
  plugins: [{
    name: 'raw',
    setup(b) {
      b.onResolve({ filter: /\?raw$/ }, (a) => ({ path: join(a.resolveDir, a.path.slice(0, -4)), namespace: 'raw' }));
      b.onLoad({ filter: /.*/, namespace: 'raw' }, (a) => ({ contents: `export default ${JSON.stringify(readFileSync(a.path, 'utf8'))};`, loader: 'js' }));
    },
  }],
});

for (const f of ['index.js', 'package.json', 'dist/linux-x64/dawn.node']) copyFileSync(join('node_modules/webgpu', f), join(out, 'node_modules/webgpu', f));
const loader = '/usr/lib/chromium/libvulkan.so.1';
if (existsSync(loader)) copyFileSync(loader, join(out, 'lib/libvulkan.so.1'));
if (!process.argv.includes('--no-node')) {
  writeFileSync(join(out, 'node.xz'), execFileSync('xz', ['-T0', '-6', '-c', process.execPath], { maxBuffer: 1 << 30 }));
  writeFileSync(join(out, 'node.version'), process.version);
}
const size = (p) => (existsSync(p) ? statSync(p).size : 0);
const total = ['device-main.mjs', 'node_modules/webgpu/dist/linux-x64/dawn.node', 'lib/libvulkan.so.1', 'node.xz'].reduce((a, f) => a + size(join(out, f)), 0);
process.stderr.write(`device-pack: ${out}/ holds ${(total / 2 ** 20).toFixed(1)} MiB (${dirname(process.execPath)}/node ${process.version}${process.argv.includes('--no-node') ? ' not packed' : ''})\n`);
