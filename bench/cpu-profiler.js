/** Starts and stops V8's sampling CPU profiler inside the current process (for one window of load). */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

let session;

export async function startProfiling() {
  if (session) throw new Error('the CPU profiler is already running');
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}

/**
 * Stops the profiler and writes the profile (Chrome DevTools `.cpuprofile` format) to `file`.
 * @param {string} file
 */
export async function stopProfiling(file) {
  if (!session) throw new Error('the CPU profiler is not running');
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  session = undefined;
  await writeFile(file, JSON.stringify(profile));
}
