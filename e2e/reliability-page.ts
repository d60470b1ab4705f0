// Shared by the reliability specs: a Vite client that never reloads the page, and an error watch.
import type { Page } from '@playwright/test';

/**
 * Replace Vite's dev client with a no-op one (styles still applied), so a page under test is
 * never reloaded by the dev server (a restart of a shared server would otherwise reload it and
 * lose the run the test is watching).
 */
export async function stubViteClient(page: Page): Promise<void> {
  const body = `
    const hot = { data: {}, accept() {}, acceptExports() {}, dispose() {}, prune() {}, invalidate() {}, on() {}, off() {}, send() {} };
    export const createHotContext = () => hot;
    export const injectQuery = (u) => u;
    export const updateStyle = (id, css) => {
      let el = document.querySelector('style[data-vite-dev-id="' + CSS.escape(id) + '"]');
      if (!el) { el = document.createElement('style'); el.setAttribute('data-vite-dev-id', id); document.head.appendChild(el); }
      el.textContent = css;
    };
    export const removeStyle = () => {};
    export class ErrorOverlay {}`;
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body }));
}

/** Page errors and console errors, collected for an `expect(errors).toEqual([])` at the end. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  return errors;
}
