/**
 * The `test` every spec uses: Playwright's, plus one automatic check. The engine logs each
 * WebGPU validation error it receives (src/gpu/context.ts: "WebGPU error: …"); a submit the
 * device rejects runs nothing, so results can look plausible while the GPU did no work. Any
 * such error on any page of the test's browser context fails the test, unless the test
 * declares it provokes them (annotation `provokes-webgpu-errors` with the reason).
 */
import { expect, test as base } from '@playwright/test';

export { expect };
export type { Page } from '@playwright/test';

export const test = base.extend<{ webgpuErrors: string[] }>({
  webgpuErrors: [
    async ({ context }, use, testInfo) => {
      const errors: string[] = [];
      context.on('console', (m) => {
        if (m.type() === 'error' && m.text().startsWith('WebGPU error')) errors.push(m.text());
      });
      await use(errors);
      if (!testInfo.annotations.some((a) => a.type === 'provokes-webgpu-errors')) {
        expect(errors, 'WebGPU validation errors reported by the device').toEqual([]);
      }
    },
    { auto: true },
  ],
});
