// Finds a Chromium-family browser for the Playwright tests and prints its path.
// Order: $CHROMIUM_PATH, /usr/bin/chromium, google-chrome on PATH, Chrome on macOS,
// Playwright's own downloaded Chromium. When none exists, one clear sentence and exit 1.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function findBrowser() {
  const env = process.env.CHROMIUM_PATH;
  if (env) return existsSync(env) ? env : null;
  const candidates = [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ];
  for (const c of candidates) if (existsSync(c)) return c;
  for (const name of ['google-chrome', 'google-chrome-stable', 'chromium']) {
    try {
      const p = execSync(`command -v ${name}`, { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
      if (p) return p;
    } catch { /* not on PATH */ }
  }
  return null; // Playwright's own browser, if installed, is tried by the caller
}

async function playwrightOwn() {
  try {
    const { chromium } = await import('@playwright/test');
    const p = chromium.executablePath();
    return p && existsSync(p) ? p : null;
  } catch { return null; }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = findBrowser() ?? (await playwrightOwn());
  if (!found) {
    const why = process.env.CHROMIUM_PATH ? `CHROMIUM_PATH points to ${process.env.CHROMIUM_PATH}, which does not exist. ` : '';
    console.error(`${why}No Chromium or Chrome found for the browser tests: install one (Debian/Ubuntu: "sudo apt-get install -y chromium"; macOS: Google Chrome) or set CHROMIUM_PATH to its executable.`);
    process.exit(1);
  }
  console.log(found);
}
