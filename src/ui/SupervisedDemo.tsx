/**
 * The first page's demo: the CPU reference learns to reverse three letters by supervised
 * training, with a live loss curve. A placeholder for the lab, but every number is real.
 */
import { useEffect, useRef, useState } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CONFIGS } from '../model/config.ts';
import { DEFAULT_ADAMW } from '../model/backend.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { Rng } from '../model/rng.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { greedyResponses, supervisedStep, type TextPair } from '../rl/supervised.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function reversePair(rng: Rng): TextPair {
  let s = '';
  for (let i = 0; i < 3; i++) s += LETTERS[rng.int(LETTERS.length)];
  return { prompt: `${s}=`, response: s.split('').reverse().join('') };
}

interface Point { step: number; loss: number }

export function SupervisedDemo() {
  const [running, setRunning] = useState(false);
  const [points, setPoints] = useState<Point[]>([]);
  const [samples, setSamples] = useState<string[]>([]);
  const runningRef = useRef(false);
  const backendRef = useRef<ReferenceBackend | null>(null);
  const stepRef = useRef(0);
  const rngRef = useRef(new Rng(1));

  useEffect(() => () => { runningRef.current = false; }, []);

  async function loop() {
    if (!backendRef.current) {
      backendRef.current = await ReferenceBackend.create({ vocabSize: VOCAB_SIZE, ...CONFIGS.micro, seqLen: 12 }, 1);
    }
    const backend = backendRef.current;
    while (runningRef.current) {
      const pairs = Array.from({ length: 16 }, () => reversePair(rngRef.current));
      const r = await supervisedStep(backend, pairs, { ...DEFAULT_ADAMW, lr: 3e-3 });
      const step = ++stepRef.current;
      setPoints((p) => [...p, { step, loss: r.loss }]);
      // Exposed for the browser test, which reads the real curve rather than pixels.
      ((window as unknown as { __lossHistory?: number[] }).__lossHistory ??= []).push(r.loss);
      if (step % 20 === 0) {
        const probe = ['abc=', 'xyz=', 'dog='];
        const out = await greedyResponses(backend, probe, 4);
        setSamples(probe.map((p, i) => `${p}${out[i]}`));
      }
      await new Promise((res) => setTimeout(res, 0)); // let the page breathe between steps
    }
  }

  function toggle() {
    runningRef.current = !runningRef.current;
    setRunning(runningRef.current);
    if (runningRef.current) void loop();
  }

  const last = points.at(-1);
  return (
    <section className="card" aria-label="Supervised warm-up demo">
      <h2>Warm-up: the CPU reference learns to reverse three letters</h2>
      <p>
        A micro transformer (D=32, 2 layers) trained by cross-entropy on <span className="mono">abc=cba</span> pairs. The
        curve is the real training loss, step by step.
      </p>
      <button onClick={toggle}>{running ? 'Pause' : 'Train'}</button>{' '}
      <span data-testid="loss-readout">{last ? `step ${last.step}, loss ${last.loss.toFixed(3)}` : 'not started'}</span>
      <div style={{ height: 260 }} data-testid="loss-chart">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 10, right: 20, bottom: 10, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} />
            <YAxis domain={[0, 'auto']} />
            <Tooltip />
            <Line type="monotone" dataKey="loss" stroke="#3461d1" dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      {samples.length > 0 && (
        <p>
          Greedy answers now: <span className="mono" data-testid="samples">{samples.join('   ')}</span>
        </p>
      )}
    </section>
  );
}
