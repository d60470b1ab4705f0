// The device check's verdict judges every part it measures: each part broken once gives ok: false.
import { describe, expect, it } from 'vitest';
import { judgeDeviceCheck, type DeviceCheckMeasurements } from './dawn-check.ts';

const healthy: DeviceCheckMeasurements = {
  kernels: { failed: [] },
  policyLoss: { cases: 5, worst: 4e-6 },
  model: { tensors: 40, worstRelErr: 2e-5 },
  grpo: { finite: true, pass1Before: 0.2, pass1After: 0.45 },
};
const full = { quick: false, micro: false };

describe('judgeDeviceCheck', () => {
  it('a healthy full check is ok, and labelled a full check', () => {
    expect(judgeDeviceCheck(healthy, full)).toMatchObject({ ok: true, form: 'full check' });
  });

  const broken: [string, DeviceCheckMeasurements][] = [
    ['kernels', { ...healthy, kernels: { failed: ['matmul_nn B3: [0] gpu 1 ref 2'] } }],
    ['policyLoss', { ...healthy, policyLoss: { cases: 5, worst: 0.02 } }],
    ['policyLoss', { ...healthy, policyLoss: { cases: 0, worst: 0 } }], // not measured is not passed
    ['model', { ...healthy, model: { tensors: 40, worstRelErr: 0.01 } }],
    ['model', { ...healthy, model: { tensors: 0, worstRelErr: 0 } }],
    ['finite', { ...healthy, grpo: { ...healthy.grpo, finite: false } }],
    ['learned', { ...healthy, grpo: { ...healthy.grpo, pass1After: 0.3 } }], // +0.10 < the margin 0.15
  ];
  it.each(broken)('%s broken: ok is false, and only that part is judged false', (part, m) => {
    const r = judgeDeviceCheck(m, full);
    expect(r.ok).toBe(false);
    expect(Object.entries(r.judged).filter(([, v]) => !v).map(([k]) => k)).toEqual([part]);
  });

  it('the quick form is a smoke test: it says so and judges only the kernels and a finite run', () => {
    const notMeasured = { ...healthy, policyLoss: { cases: 0, worst: 0 }, model: { tensors: 0, worstRelErr: 0 }, grpo: { finite: true, pass1Before: 0, pass1After: 0 } };
    const r = judgeDeviceCheck(notMeasured, { quick: true, micro: false });
    expect(r.form).toMatch(/^smoke test/);
    expect(r.ok).toBe(true);
    expect(judgeDeviceCheck({ ...notMeasured, kernels: { failed: ['x'] } }, { quick: true, micro: false }).ok).toBe(false);
    expect(judgeDeviceCheck({ ...notMeasured, grpo: { ...notMeasured.grpo, finite: false } }, { quick: true, micro: false }).ok).toBe(false);
  });
});
