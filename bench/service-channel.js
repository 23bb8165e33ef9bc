/**
 * The child side of a benchmark service: announces where it listens and answers the parent's
 * control messages. Run without a parent (plain `node bench/serve-….js`), the announcement is
 * printed as one JSON line on stdout and SIGINT/SIGTERM stop the service.
 */
import { startProfiling, stopProfiling } from './cpu-profiler.js';

/** @param {Record<string, unknown>} info what the parent needs to reach the service */
export function announce(info) {
  if (process.send) process.send({ type: 'ready', info });
  else console.log(JSON.stringify(info));
}

/** The questions a parent may ask; each answer is sent back with the question's `id`. */
const ANSWERS = {
  /** `process.memoryUsage()`, after a full collection when `gc` is set and --expose-gc is on. */
  memory: async (question) => {
    if (question.gc && typeof globalThis.gc === 'function') globalThis.gc();
    return process.memoryUsage();
  },
  /** `process.cpuUsage()`: user and system CPU µs since the process started. */
  cpu: async () => process.cpuUsage(),
  'profile-start': async () => startProfiling(),
  'profile-stop': async (question) => stopProfiling(question.file),
};

/**
 * Answers the parent's questions (see ANSWERS); `{type:'stop'}`, a lost parent or a signal
 * closes the service and exits.
 * @param {() => Promise<void>} close
 */
export function serveControl(close) {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close();
    process.exit(0);
  };
  process.on('message', (question) => {
    if (question?.type === 'stop') return void stop();
    const answer = ANSWERS[question?.type];
    if (!answer) return;
    answer(question).then(
      (result) => process.send?.({ type: question.type, id: question.id, result }),
      (error) => process.send?.({ type: question.type, id: question.id, error: String(error) }),
    );
  });
  process.on('disconnect', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
