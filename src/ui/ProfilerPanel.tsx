/**
 * Where the time of one step goes: the engine profiler's report (src/gpu/profiler.ts) as bars,
 * per phase (forward, loss, backward, optimizer, rollout) and per kernel family (matmul,
 * attention, layernorm, …). Props only: the page gets a Profile from
 * `new Profiler(backend).profileTrainStep(batch, opt)` (or `.profile(label, run)`) and passes it in.
 */
import type { Profile, ProfileRow } from '../gpu/profiler.ts';

export interface ProfilerPanelProps {
  /** The report to show; null shows a hint instead. */
  profile: Profile | null;
  /** Called when the student asks for a fresh profile (button hidden when absent). */
  onProfile?: () => void;
  /** True while a profile is being taken (disables the button). */
  busy?: boolean;
}

const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f'];

function Bars({ title, rows }: { title: string; rows: ProfileRow[] }) {
  const max = Math.max(1e-9, ...rows.map((r) => r.ms));
  return (
    <div style={{ marginBottom: 12 }}>
      <div style={{ fontWeight: 600, marginBottom: 4 }}>{title}</div>
      <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: 13 }}>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.name}>
              <td style={{ whiteSpace: 'nowrap', paddingRight: 8, width: '9em' }}>{r.name}</td>
              <td style={{ width: '100%' }}>
                <div
                  title={`${r.dispatches} dispatch${r.dispatches === 1 ? '' : 'es'}`}
                  style={{ background: COLORS[i % COLORS.length], height: 12, width: `${(100 * r.ms) / max}%`, minWidth: 1 }}
                />
              </td>
              <td style={{ textAlign: 'right', paddingLeft: 8, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {r.ms < 10 ? r.ms.toFixed(2) : r.ms.toFixed(0)} ms
              </td>
              <td style={{ textAlign: 'right', paddingLeft: 8, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums', color: '#666' }}>
                {Math.round(r.share * 100)}%
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ProfilerPanel({ profile, onProfile, busy }: ProfilerPanelProps) {
  return (
    <section aria-label="profiler" className="profiler-panel" style={{ padding: 8 }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 8 }}>
        <h3 style={{ margin: '0 0 6px' }}>Where the time goes</h3>
        {onProfile && (
          <button type="button" onClick={onProfile} disabled={busy}>
            {busy ? 'profiling…' : 'profile one step'}
          </button>
        )}
      </header>
      {!profile ? (
        <p style={{ color: '#666' }}>No profile yet: profile one step to see the GPU time per phase and per kernel family.</p>
      ) : (
        <>
          <p style={{ margin: '0 0 8px', fontSize: 13, color: '#444' }}>
            {profile.label}: {profile.gpuMs.toFixed(1)} ms of GPU work in {profile.dispatches} dispatches (step wall time{' '}
            {profile.wallMs.toFixed(1)} ms, with uploads and the readback). Clock:{' '}
            {profile.source === 'timestamp-query' ? 'GPU timestamp queries' : 'CPU timing of replayed work (this adapter has no timestamp queries)'}, each group the
            fastest of {profile.rounds} replays.
          </p>
          {!profile.steady && (
            <p role="note" style={{ margin: '0 0 8px', fontSize: 13 }}>
              These figures are unsteady: the phases, the kernel families and the single kernels, three groupings of the same work, add up to totals up to {Math.round((profile.spread - 1) * 100)} % apart after{' '}
              {profile.rounds} replays, so other work was using the same processor while they were timed. Profile again when the machine is quieter.
            </p>
          )}
          <Bars title="Per phase" rows={profile.phases} />
          <Bars title="Per kernel family" rows={profile.families} />
        </>
      )}
    </section>
  );
}

export default ProfilerPanel;
