/**
 * Closed-loop load with wrk, a C load generator, pinned to one CPU with `taskset` (Linux): where a
 * Node load generator sharing the cores with the gateway bounds the latency it reads, wrk on a core
 * of its own does not. Its figures come from its `--latency` report.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Milliseconds per unit of wrk's latency figures. */
const MS_PER_UNIT = { us: 1e-3, ms: 1, s: 1e3 };

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).filter(Boolean).some((directory) => {
    try {
      accessSync(join(directory, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Why wrk cannot run on a core of its own here, or undefined when it can. */
export function pinnedWrkMissing() {
  if (process.platform !== 'linux' || availableParallelism() < 2) return 'needs Linux with at least 2 CPUs';
  const missing = ['wrk', 'taskset'].filter((command) => !onPath(command));
  return missing.length === 0 ? undefined : `${missing.join(' and ')} not on PATH`;
}

/** Pins every thread of process `pid` to CPU `cpu`. */
export async function pinToCpu(pid, cpu) {
  await run('taskset', ['-a', '-p', '-c', String(cpu), String(pid)]);
}

function latencyMs(report, percent) {
  const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(report);
  if (!match) throw new Error(`wrk reported no ${percent}% latency:\n${report}`);
  return Number(match[1]) * MS_PER_UNIT[match[2]];
}

/** Replies other than 2xx or 3xx, and connect, read, write and timeout errors. */
function failures(report) {
  const non2xx = Number(/Non-2xx or 3xx responses:\s*(\d+)/.exec(report)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  return non2xx + (socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0);
}

function parseReport(report) {
  const rps = /^Requests\/sec:\s*([\d.]+)/m.exec(report);
  if (!rps) throw new Error(`wrk reported no Requests/sec:\n${report}`);
  return { rps: Number(rps[1]), p50: latencyMs(report, 50), p99: latencyMs(report, 99), errors: failures(report) };
}

/**
 * One thread, `connections` connections, for whole `seconds`, wrk itself pinned to CPU `cpu`.
 * @param {{ url: string, headers: Record<string, string>, connections: number, seconds: number, cpu: number }} options
 * @returns {Promise<{ rps: number, p50: number, p99: number, errors: number }>} latencies in ms
 */
export async function measureWithWrk({ url, headers, connections, seconds, cpu }) {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const duration = `${Math.max(1, Math.round(seconds))}s`;
  const { stdout } = await run('taskset', ['-c', String(cpu), 'wrk', '-t1', `-c${connections}`, `-d${duration}`, '--latency', ...headerArgs, url]);
  return parseReport(stdout);
}
