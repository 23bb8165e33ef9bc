/** Benchmark service: the provider simulator on an ephemeral loopback port. */
import { startSimulator } from '../dist/sim/server.js';
import { announce, serveControl } from './service-channel.js';

const sim = await startSimulator({ port: 0 });
serveControl(() => sim.close());
announce({ url: sim.url, pid: process.pid });
