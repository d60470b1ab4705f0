/** The profiler card: one real step timed on the GPU, by phase and by kernel family. */
import { useLab } from '../store/labStore.ts';
import { useSession } from './session.tsx';
import { ProfilerPanel } from './ProfilerPanel.tsx';

export function Profiling() {
  const profile = useLab((s) => s.profile);
  const busy = useLab((s) => s.profiling || s.inStep);
  const note = useLab((s) => s.profileNote);
  const backend = useLab((s) => s.backendName);
  const lab = useSession();
  return (
    <section className="card" aria-label="Where the time goes" data-testid="profiler">
      <ProfilerPanel profile={profile} busy={busy} onProfile={backend === 'webgpu' ? () => void lab.profileOneStep() : undefined} />
      {backend !== 'webgpu' && <p>The profiler times GPU kernels; this run is on the CPU reference.</p>}
      {note && <p role="status">{note}</p>}
    </section>
  );
}
