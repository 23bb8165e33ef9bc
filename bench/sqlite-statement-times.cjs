/**
 * `NODE_OPTIONS="--require ./bench/sqlite-statement-times.cjs" switchyard serve …`: counts every SQLite
 * statement the process runs and the wall time each took, by statement text; `kill -USR2 <pid>`
 * prints the table to standard error (most frequent first) and starts counting again. Divide by
 * the requests served in between for what one request costs in statements. The times include the
 * timing itself (under a microsecond) and whatever preempted the statement on its core.
 */
const Database = require('better-sqlite3');

const counts = new Map();
const statementPrototype = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));
for (const method of ['run', 'get', 'all']) {
  const original = statementPrototype[method];
  statementPrototype[method] = function timed(...parameters) {
    const startedAt = process.hrtime.bigint();
    try {
      return original.apply(this, parameters);
    } finally {
      const key = `${method} ${this.source.replace(/\s+/g, ' ').slice(0, 100)}`;
      const seen = counts.get(key) ?? { calls: 0, ns: 0n };
      seen.calls += 1;
      seen.ns += process.hrtime.bigint() - startedAt;
      counts.set(key, seen);
    }
  };
}

process.on('SIGUSR2', () => {
  const rows = [...counts].sort(([, a], [, b]) => b.calls - a.calls);
  const lines = rows.map(([key, { calls, ns }]) => `${String(calls).padStart(8)} ${(Number(ns) / calls / 1000).toFixed(1).padStart(8)} µs  ${key}`);
  process.stderr.write(`   calls  mean µs  statement\n${lines.join('\n')}\n`);
  counts.clear();
});
