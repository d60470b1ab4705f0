/**
 * The controls panel, generated from the one settings table (src/rl/settings.ts): each control
 * is labelled with the parameter in words and symbol, and carries a tooltip with the formula
 * it enters and TRL's name. Changes go to the run controller and apply from the next step.
 */
import { useEffect } from 'react';
import { SETTINGS, type SettingKey, type SettingSpec, type Settings } from '../rl/settings.ts';
import { settingAvailability } from '../rl/availability.ts';
import { useLab } from '../store/labStore.ts';
import { useSession } from './session.tsx';
import { fmt } from './palette.ts';

const GROUPS: { id: SettingSpec['group']; title: string }[] = [
  { id: 'task', title: 'Task and reward' },
  { id: 'rollout', title: 'Rollout' },
  { id: 'objective', title: 'Objective' },
  { id: 'optimizer', title: 'Optimizer' },
  { id: 'dapo', title: 'DAPO extras' },
  { id: 'run', title: 'Run' },
];

/** Slider positions of a log-scaled setting: 1, 2, 3, 5 × 10^k inside its range. */
function logValues(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of [1, 2, 3, 5]) {
      const v = Number((m * 10 ** e).toPrecision(3));
      if (v >= min - 1e-12 && v <= max + 1e-12) out.push(v);
    }
  }
  return out;
}

const decimals = (step: number) => Math.max(0, -Math.floor(Math.log10(step) + 1e-9));

function Tooltip({ spec, id }: { spec: SettingSpec; id: string }) {
  return (
    <div role="tooltip" id={id} className="tooltip">
      <strong>{spec.label}</strong>
      <span className="formula">{spec.help}</span>
      {'trl' in spec && spec.trl ? <span className="trl">TRL: <code>{spec.trl}</code></span> : <span className="trl">(no TRL GRPOConfig field)</span>}
    </div>
  );
}

/**
 * Where a control's tooltip goes on a wide screen (app.css shows it there, position: fixed): just
 * right of the settings panel, level with the control (its bottom edge level with the control's
 * in the lower half of the window), and below the transport bar when that is beside it. So it
 * covers no other setting; it never takes the pointer (pointer-events: none).
 */
function placeTip(e: { currentTarget: HTMLElement }) {
  const el = e.currentTarget;
  const panel = el.closest('.controls')?.getBoundingClientRect();
  if (!panel) return;
  const r = el.getBoundingClientRect();
  const bar = document.querySelector('.transport')?.getBoundingClientRect();
  const low = r.top > window.innerHeight / 2;
  const gone = r.bottom < Math.max(panel.top, 0) || r.top > Math.min(panel.bottom, window.innerHeight); // scrolled out of sight: no tooltip
  el.style.setProperty('--tip-visibility', gone ? 'hidden' : 'visible');
  const top = bar && bar.bottom > r.top && bar.top < r.top + 200 ? bar.bottom + 6 : r.top; // the tooltip is at most about 200 px tall
  el.style.setProperty('--tip-left', `${Math.round(panel.right + 8)}px`);
  el.style.setProperty('--tip-top', low ? 'auto' : `${Math.round(top)}px`);
  el.style.setProperty('--tip-bottom', low ? `${Math.round(window.innerHeight - r.bottom)}px` : 'auto');
}
const tipHandlers = { onPointerEnter: placeTip, onFocus: placeTip };
/** A shown tooltip follows its control when the panel or the page scrolls. */
function useTipsFollow() {
  useEffect(() => {
    const follow = () => document.querySelectorAll<HTMLElement>('.control:hover, .control:focus-within').forEach((el) => placeTip({ currentTarget: el }));
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => { window.removeEventListener('scroll', follow, true); window.removeEventListener('resize', follow); };
  }, []);
}

/** Why a control does not apply to the current settings (null when it does): the rule is settingAvailability's. */
function useUnavailable(key: string): { reason: string | null; shown: unknown } {
  const reason = useLab((s) => settingAvailability(key as SettingKey, s.settings).reason);
  const shown = useLab((s) => settingAvailability(key as SettingKey, s.settings).shown);
  return { reason, shown };
}

/** The reason under a disabled control, visible (not only in a tooltip). */
function Why({ settingKey, reason }: { settingKey: string; reason: string | null }) {
  return reason ? <p className="hint" id={`ctl-${settingKey}-why`} data-testid={`why-${settingKey}`} style={{ margin: '2px 0 0' }}>{reason}</p> : null;
}

/** A value 0 that is not a quantity says what it means ("0 = off"), from the settings table's `zero`. */
function ZeroNote({ spec, value }: { spec: Extract<SettingSpec, { kind: 'number' | 'int' }>; value: number }) {
  return spec.zero && value === 0 ? <p className="hint" data-testid={`zero-${spec.key}`} style={{ margin: '2px 0 0' }}>0 = {spec.zero}</p> : null;
}

function NumberControl({ spec }: { spec: Extract<SettingSpec, { kind: 'number' | 'int' }> }) {
  const lab = useSession();
  const stored = useLab((s) => (s.settings as unknown as Record<string, number>)[spec.key]);
  const { reason, shown } = useUnavailable(spec.key);
  const value = typeof shown === 'number' ? shown : stored; // the value in effect (RLOO runs µ = 1)
  const id = `ctl-${spec.key}`;
  const key = spec.key as keyof Settings;
  const wide = spec.kind === 'int' && spec.max - spec.min > 200;
  if (wide) {
    return (
      <div className="control" data-testid={`control-${spec.key}`} {...tipHandlers}>
        <label htmlFor={id}>{spec.label}</label>
        <input id={id} type="number" min={spec.min} max={spec.max} step={spec.step} value={value} aria-describedby={`${id}-tip`}
          onChange={(e) => {
            const x = Number(e.target.value);
            if (Number.isInteger(x) && x >= spec.min && x <= spec.max) lab.setSetting(key, x as never);
          }} />
        <ZeroNote spec={spec} value={value} />
        <Tooltip spec={spec} id={`${id}-tip`} />
      </div>
    );
  }
  const values = spec.log ? logValues(spec.min, spec.max) : null;
  const n = values ? values.length - 1 : Math.round((spec.max - spec.min) / spec.step);
  const pos = values
    ? values.reduce((best, v, i) => (Math.abs(Math.log(v / value)) < Math.abs(Math.log(values[best] / value)) ? i : best), 0)
    : Math.round((value - spec.min) / spec.step);
  const toValue = (p: number) => (values ? values[p] : Number((spec.min + p * spec.step).toFixed(decimals(spec.step))));
  return (
    <div className="control" data-testid={`control-${spec.key}`} {...tipHandlers}>
      <label htmlFor={id}>{spec.label}</label>
      <div className="slider-row">
        <input id={id} type="range" min={0} max={n} step={1} value={pos} aria-valuetext={fmt(value, 5)} aria-describedby={reason ? `${id}-why ${id}-tip` : `${id}-tip`} disabled={reason !== null}
          onChange={(e) => lab.setSetting(key, toValue(Number(e.target.value)) as never)} />
        <output htmlFor={id} data-testid={`value-${spec.key}`}>{fmt(value, 5)}</output>
      </div>
      <ZeroNote spec={spec} value={value} />
      <Why settingKey={spec.key} reason={reason} />
      <Tooltip spec={spec} id={`${id}-tip`} />
    </div>
  );
}

function EnumControl({ spec }: { spec: Extract<SettingSpec, { kind: 'enum' }> }) {
  const lab = useSession();
  const value = useLab((s) => (s.settings as unknown as Record<string, string>)[spec.key]);
  const { reason, shown } = useUnavailable(spec.key);
  const id = `ctl-${spec.key}`;
  return (
    <div className="control" data-testid={`control-${spec.key}`} {...tipHandlers}>
      <label htmlFor={id}>{spec.label}</label>
      <select id={id} value={typeof shown === 'string' ? shown : value} disabled={reason !== null} aria-describedby={reason ? `${id}-why ${id}-tip` : `${id}-tip`} onChange={(e) => lab.setSetting(spec.key as keyof Settings, e.target.value as never)}>
        {spec.options.map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
      <Why settingKey={spec.key} reason={reason} />
      <Tooltip spec={spec} id={`${id}-tip`} />
    </div>
  );
}

function BoolControl({ spec }: { spec: Extract<SettingSpec, { kind: 'bool' }> }) {
  const lab = useSession();
  const value = useLab((s) => (s.settings as unknown as Record<string, boolean>)[spec.key]);
  const { reason } = useUnavailable(spec.key);
  const id = `ctl-${spec.key}`;
  return (
    <div className="control control-bool" data-testid={`control-${spec.key}`} {...tipHandlers}>
      <input id={id} type="checkbox" checked={value} disabled={reason !== null} aria-describedby={reason ? `${id}-why ${id}-tip` : `${id}-tip`} onChange={(e) => lab.setSetting(spec.key as keyof Settings, e.target.checked as never)} />
      <label htmlFor={id}>{spec.label}</label>
      <Why settingKey={spec.key} reason={reason} />
      <Tooltip spec={spec} id={`${id}-tip`} />
    </div>
  );
}

export function Control({ spec }: { spec: SettingSpec }) {
  if (spec.kind === 'enum') return <EnumControl spec={spec} />;
  if (spec.kind === 'bool') return <BoolControl spec={spec} />;
  return <NumberControl spec={spec} />;
}

/** Opens the "New task" editor (TaskEditor.tsx): a task of one's own, written as data. */
function NewTaskButton() {
  const lab = useSession();
  const open = useLab((s) => s.taskEditorOpen);
  return <button className="small" data-testid="open-task-editor" aria-expanded={open} onClick={() => lab.custom.openEditor(!open)} style={{ marginBottom: 4 }}>New task…</button>;
}

export function Controls() {
  const classroom = useLab((s) => s.classroom);
  const hidden = useLab((s) => s.hidden);
  const shown = (key: string) => !(classroom && hidden.includes(key));
  useTipsFollow();
  return (
    <aside className="controls" aria-label="Settings">
      <p className="hint">Changes apply from the next step. Hover or focus a control for its formula.</p>
      {GROUPS.map((g) => {
        const specs = (SETTINGS as readonly SettingSpec[]).filter((s) => s.group === g.id && shown(s.key));
        if (!specs.length) return null;
        return (
          <fieldset key={g.id} className="control-group">
            <legend>{g.title}</legend>
            {g.id === 'task' && <NewTaskButton />}
            {specs.map((s) => <Control key={s.key} spec={s} />)}
          </fieldset>
        );
      })}
    </aside>
  );
}
