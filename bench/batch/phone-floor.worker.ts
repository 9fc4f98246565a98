// Worker thread of the phone floor: bare libphonenumber-js/max parse + isValid + getType over a
// slice of the phone file, the work the phone engine cannot avoid (no hint: batch rows are E.164).
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

interface FloorTask {
  path: string;
  worker: number;
  workers: number;
}

const task = workerData as FloorTask;
const rows = readFileSync(task.path, 'utf8')
  .split('\n')
  .filter((r, i) => r !== '' && i % task.workers === task.worker);

function pass(): number {
  let valid = 0;
  for (const r of rows) {
    const n = parsePhoneNumberFromString(r);
    if (n?.isValid() && n.getType() !== undefined) valid++;
  }
  return valid;
}

pass(); // warm-up (JIT, metadata)
parentPort?.once('message', () => {
  const t0 = performance.now();
  const valid = pass();
  parentPort?.postMessage({ rows: rows.length, valid, ms: performance.now() - t0 });
});
parentPort?.postMessage({ ready: true });
