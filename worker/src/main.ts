/** `npm run worker`: the turn worker process (worker/src/process.ts). */
import { runWorkerProcess } from './process.ts';

await runWorkerProcess();
