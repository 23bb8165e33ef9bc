import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundTasks, periodicTask, type BackgroundTask } from '../../../src/cluster/background.js';
import { holdReconciler } from '../../../src/runtime/hold-reconciler.js';

const quiet = { info: () => undefined, error: () => undefined };

afterEach(() => {
  vi.useRealTimers();
});

describe('background tasks', () => {
  it('tasks start in order and stop in reverse order when the instance drains', async () => {
    const seen: string[] = [];
    const task = (name: string): BackgroundTask => ({
      name,
      start: async () => {
        seen.push(`start ${name}`);
      },
      stop: async () => {
        seen.push(`stop ${name}`);
      },
    });
    const tasks = new BackgroundTasks(quiet);
    await tasks.start([task('reconciler'), task('prober')]);
    await tasks.stop();
    expect(seen).toEqual(['start reconciler', 'start prober', 'stop prober', 'stop reconciler']);
  });

  it('a periodic task runs its first round at start, then every interval, and a failed round does not stop it', async () => {
    vi.useFakeTimers();
    let rounds = 0;
    const errors: unknown[] = [];
    const task = periodicTask({
      name: 'counter',
      intervalMs: 1_000,
      logger: { error: (entry: unknown) => errors.push(entry) },
      round: async () => {
        rounds += 1;
        if (rounds === 2) throw new Error('database away');
      },
    });
    await task.start();
    expect(rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(rounds).toBe(4);
    expect(errors).toHaveLength(1);
    await task.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rounds).toBe(4);
  });

  it('the hold reconciler releases expired holds at start and on every round', async () => {
    vi.useFakeTimers();
    const sweeps: Date[] = [];
    const reconciler = holdReconciler({ releaseExpired: async (now?: Date) => (sweeps.push(now ?? new Date()), 0) }, quiet);
    await reconciler.start();
    expect(sweeps).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sweeps).toHaveLength(2);
    await reconciler.stop();
  });
});
