// `npm test`: unit tests in Node (vitest), then browser tests in headless Chromium (Playwright).
// Fails if either fails. Both always run so one report shows everything.
import { spawnSync } from 'node:child_process';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false }).status ?? 1;

const unit = run('npx', ['vitest', 'run']);
const browser = run('node', ['scripts/find-browser.mjs']) === 0 ? run('npx', ['playwright', 'test']) : 1;
if (unit !== 0) console.error('\nnpm test: unit tests (vitest) failed.');
if (browser !== 0) console.error('\nnpm test: browser tests (Playwright) failed.');
process.exit(unit === 0 && browser === 0 ? 0 : 1);
