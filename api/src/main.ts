import { startApiServer } from './server.ts';

const api = await startApiServer();
console.log(`[api] listening on port ${api.port}`);
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await api.close();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
