import { describe, expect, it } from 'vitest';
import { gatewayLogger } from '../../../src/runtime/gateway-logger.js';

describe('LOG_LEVEL', () => {
  it('names the level of the gateway logger, info by default', () => {
    expect(gatewayLogger().level).toBe('info');
    expect(gatewayLogger('debug').level).toBe('debug');
    expect(gatewayLogger('silent').level).toBe('silent');
  });

  it('an unknown level is refused naming the variable and the levels there are', () => {
    expect(() => gatewayLogger('verbose')).toThrow('LOG_LEVEL: unknown level "verbose" (one of trace, debug, info, warn, error, fatal, silent)');
  });
});
