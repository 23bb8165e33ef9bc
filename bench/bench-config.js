/** Benchmark settings, from the environment. */

function positive(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${raw}`);
  return value;
}

/**
 * - BENCH_SECONDS: measured seconds per scenario (default 10)
 * - BENCH_WARMUP_SECONDS: unmeasured load before each scenario (default 2)
 * - BENCH_CONNECTIONS: concurrent clients (default 32)
 * - BENCH_MEMORY_SECONDS: length of the memory run (default 60)
 * - BENCH_README: `0` prints the table without writing bench/README.md
 * @param {NodeJS.ProcessEnv} env
 */
export function readBenchConfig(env = process.env) {
  return {
    seconds: positive(env, 'BENCH_SECONDS', 10),
    warmupSeconds: positive(env, 'BENCH_WARMUP_SECONDS', 2),
    connections: Math.round(positive(env, 'BENCH_CONNECTIONS', 32)),
    memorySeconds: positive(env, 'BENCH_MEMORY_SECONDS', 60),
    writeReadme: env.BENCH_README !== '0',
  };
}
