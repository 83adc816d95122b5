import { startTestServer } from '@vita-docs/test-server';
const t0 = performance.now();
const s = await startTestServer({ verbose: true, env: process.env.DB ? { DATABASE_URL: process.env.DB } : {} });
const t1 = performance.now();
await s.stop({ keepData: false });
console.log('start ms', Math.round(t1 - t0), 'stop ms', Math.round(performance.now() - t1));
