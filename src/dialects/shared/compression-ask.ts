import { invalidRequest } from '../../core/errors.js';

const TRANSFORMS = new Set(['middle-out']);
const COMPRESSION_PLUGIN = 'context-compression';

/**
 * True when the caller asked for middle-out compression: `transforms: [middle-out]` or the
 * `context-compression` plugin. An empty list declines; an unknown transform or plugin id is refused.
 */
export function readCompressionAsk(transforms: string[] | undefined, plugins: { id: string }[] | undefined): boolean {
  transforms?.forEach((name, index) => {
    if (!TRANSFORMS.has(name)) throw invalidRequest(`transforms[${index}]`, `unknown transform ${JSON.stringify(name)}`);
  });
  plugins?.forEach((plugin, index) => {
    if (plugin.id !== COMPRESSION_PLUGIN) throw invalidRequest(`plugins[${index}].id`, `unknown plugin ${JSON.stringify(plugin.id)}`);
  });
  return (transforms?.includes('middle-out') ?? false) || (plugins?.length ?? 0) > 0;
}
