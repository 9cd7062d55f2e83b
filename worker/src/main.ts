// The worker process (pg-boss queue, schedule and turns) is built in issue 4; until then it only
// prepares the database and idles so `npm start` has the process model in place.
import { prepareDatabase } from '@marketcraft/db';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
await prepareDatabase(url);
console.log('[worker] ready');
setInterval(() => {}, 1 << 30);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
