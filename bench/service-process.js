/**
 * The parent side of a benchmark service: each service (simulator, bare proxy, gateway) runs in
 * its own Node process so it does not share an event loop with the load generator, and so its
 * memory can be sampled on its own.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const READY_TIMEOUT_MS = 30_000;

/**
 * Forks `bench/<script>` and waits for its announcement.
 * @param {string} script file name inside bench/
 * @param {{ env?: Record<string, string>, execArgv?: string[] }} [options]
 */
export async function startService(script, options = {}) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    env: { ...process.env, ...options.env },
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const info = await waitForReady(child, script);
  return {
    info,
    pid: child.pid,
    /** `process.memoryUsage()` of the service, after a full collection when `gc` is true. */
    memory: (gc = false) => ask(child, { type: 'memory', gc }),
    /** `process.cpuUsage()` of the service: user and system CPU time in µs since it started. */
    cpu: () => ask(child, { type: 'cpu' }),
    /** Starts sampling the service's CPU. */
    startProfiling: () => ask(child, { type: 'profile-start' }),
    /** Stops sampling and has the service write its `.cpuprofile` to `file`. */
    stopProfiling: (file) => ask(child, { type: 'profile-stop', file }),
    /** Closes the service and waits for its process to exit. */
    stop: () => stopChild(child),
  };
}

function waitForReady(child, script) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${script} did not start within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    const onMessage = (message) => {
      if (message?.type !== 'ready') return;
      cleanup();
      resolve(message.info);
    };
    const onExit = (code) => fail(new Error(`${script} exited with code ${code} before it was ready`));
    function cleanup() {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    }
    function fail(error) {
      cleanup();
      child.kill();
      reject(error);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

let nextQuestionId = 0;

/** Sends a question with a fresh id and resolves with the answer that echoes it. */
function ask(child, question) {
  const id = ++nextQuestionId;
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (message?.type !== question.type || message.id !== id) return;
      child.off('message', onMessage);
      if (message.error) reject(new Error(`${question.type}: ${message.error}`));
      else resolve(message.result);
    };
    child.on('message', onMessage);
    child.send({ ...question, id });
  });
}

function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send({ type: 'stop' });
  });
}
