/** Benchmark service: the bare reverse proxy in front of the simulator named by BENCH_SIM_URL. */
import { startBareProxy } from './bare-proxy.js';
import { announce, serveControl } from './service-channel.js';

const target = process.env.BENCH_SIM_URL;
if (!target) throw new Error('BENCH_SIM_URL must name the simulator, e.g. http://127.0.0.1:9101');
const proxy = await startBareProxy({ target, port: 0 });
serveControl(() => proxy.close());
announce({ url: proxy.url, pid: process.pid });
