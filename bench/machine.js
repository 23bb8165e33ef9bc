/** The machine a benchmark ran on, for the results table. */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';

function cpuModel() {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((entry) => entry.startsWith('model name'));
    if (line) return line.slice(line.indexOf(':') + 1).trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}

export function describeMachine() {
  return {
    cpu: cpuModel(),
    cores: availableParallelism(),
    ramGiB: totalmem() / 1024 ** 3,
    node: process.version,
    os: `${type()} ${release()}`,
    /** 1-minute load average before the run: other work on the machine skews the numbers. */
    loadBefore: loadavg()[0],
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  };
}
