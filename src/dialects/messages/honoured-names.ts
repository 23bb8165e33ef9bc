/** Core member names whose request member has another name in this dialect. */
const DIALECT_NAMES: Record<string, string> = {
  stop: 'stop_sequences',
  parallel_tool_calls: 'disable_parallel_tool_use',
};

/** The `honoured` verdict under the names the caller used. */
export function dialectHonoured(honoured: Record<string, boolean>): Record<string, boolean> {
  const renamed: Record<string, boolean> = {};
  for (const [name, verdict] of Object.entries(honoured)) renamed[DIALECT_NAMES[name] ?? name] = verdict;
  return renamed;
}
