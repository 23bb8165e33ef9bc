/** Renders one benchmark run as Markdown: throughput, time to first byte, memory, machine. */

const MIB = 1024 * 1024;
export const TTFB_TARGET_MS = 2;

const ms = (value) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
const ratio = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
const mib = (bytes) => (bytes / MIB).toFixed(1);

function throughputTable(rows, config) {
  const lines = [
    `### Chat completions, concurrency ${config.connections}`,
    '',
    '| mode | target | req/s | p50 ms | p99 ms | failed | CPU µs/req |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const { rps, p50, p99, errors, cpuPerRequest } = row.result;
    lines.push(`| ${row.mode} | ${row.target} | ${rps.toFixed(0)} | ${ms(p50)} | ${ms(p99)} | ${errors} | ${cpuPerRequest.toFixed(0)} |`);
  }
  lines.push(
    '',
    'CPU µs/req: user + system CPU time of the process the client talks to (the simulator, the bare proxy or the gateway, not the simulator behind them) per successful request.',
    '',
    '| mode | gateway / bare proxy req/s | gateway / bare proxy p50 | gateway / bare proxy p99 | gateway / bare proxy CPU per request |',
    '|---|---:|---:|---:|---:|',
  );
  for (const mode of new Set(rows.map((row) => row.mode))) {
    const bare = rows.find((row) => row.mode === mode && row.target === 'bare proxy')?.result;
    const gateway = rows.find((row) => row.mode === mode && row.target === 'gateway')?.result;
    if (!bare || !gateway) continue;
    const cells = [gateway.rps / bare.rps, gateway.p50 / bare.p50, gateway.p99 / bare.p99, gateway.cpuPerRequest / bare.cpuPerRequest];
    lines.push(`| ${mode} | ${cells.map(ratio).join(' | ')} |`);
  }
  return lines;
}

function firstByteTable(single, loaded) {
  const lines = [
    '### Time to first streamed byte',
    '',
    '| target | p50 ms, concurrency 1 | p99 ms, concurrency 1 | p50 ms, concurrency 32 |',
    '|---|---:|---:|---:|',
  ];
  for (const row of single) {
    const underLoad = loaded.find((entry) => entry.target === row.target)?.result;
    lines.push(`| ${row.target} | ${ms(row.result.ttfbP50)} | ${ms(row.result.ttfbP99)} | ${ms(underLoad?.ttfbP50)} |`);
  }
  const bare = single.find((row) => row.target === 'bare proxy')?.result;
  const gateway = single.find((row) => row.target === 'gateway')?.result;
  if (bare && gateway) {
    const added = gateway.ttfbP50 - bare.ttfbP50;
    const verdict = added <= TTFB_TARGET_MS ? 'met' : 'missed';
    lines.push('', `Gateway adds **${ms(added)} ms** to the p50 time to first byte at concurrency 1 (target ≤ ${TTFB_TARGET_MS} ms: ${verdict}).`);
  }
  return lines;
}

function memoryTable(memory) {
  const lines = [
    `### Gateway memory, ${memory.seconds} s of mixed load`,
    '',
    '| point | at s | RSS MiB | heap used MiB | heap total MiB | external MiB |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const point of memory.points) {
    const { rss, heapUsed, heapTotal, external } = point.usage;
    lines.push(`| ${point.label} | ${point.seconds.toFixed(0)} | ${mib(rss)} | ${mib(heapUsed)} | ${mib(heapTotal)} | ${mib(external)} |`);
  }
  const byLabel = Object.fromEntries(memory.points.map((point) => [point.label, point.usage]));
  const growth = (field) => mib(byLabel.end[field] - byLabel.middle[field]);
  lines.push(
    '',
    `${memory.requests} requests (${memory.errors} failed); peak RSS ${mib(memory.peakRss)} MiB. ` +
      `Middle → end: heap used ${growth('heapUsed')} MiB, RSS ${growth('rss')} MiB. ` +
      'Checkpoints are taken after a full garbage collection.',
  );
  return lines;
}

function machineLines(machine, config) {
  const busy = machine.loadBefore > machine.cores / 2
    ? [`- **Other work was running**: load average ${machine.loadBefore.toFixed(2)} on ${machine.cores} cores before the run, so absolute figures are low and noisy; the CPU-per-request column is the steadiest.`]
    : [];
  return [
    '### Machine',
    '',
    `- CPU: ${machine.cpu}, ${machine.cores} cores; RAM ${machine.ramGiB.toFixed(1)} GiB`,
    `- Node ${machine.node} on ${machine.os}; 1-minute load average before the run ${machine.loadBefore.toFixed(2)}`,
    `- Run ${machine.date}: ${config.seconds} s per scenario after ${config.warmupSeconds} s warm-up, ${config.connections} connections`,
    ...busy,
  ];
}

/**
 * @param {{ machine: object, config: object, throughput: object[], firstByte: object[], memory: object }} run
 * @returns {string}
 */
export function renderReport(run) {
  const streamed = run.throughput.filter((row) => row.mode === 'streamed');
  return [
    ...throughputTable(run.throughput, run.config),
    '',
    ...firstByteTable(run.firstByte, streamed),
    '',
    ...memoryTable(run.memory),
    '',
    ...machineLines(run.machine, run.config),
  ].join('\n');
}
