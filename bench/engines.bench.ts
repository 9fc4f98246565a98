// `npm run bench:engines`: the three engine benchmarks in sequence, each printing its own
// rows/s and, where it has one, the bare-library floor and the ratio.
import { cpus } from 'node:os';
import { benchEmail } from './engines/email';
import { benchIp } from './engines/ip';
import { benchPhone } from './engines/phone';

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}; every engine runs on one core (one event loop)`,
  );
  for (const [name, run] of [
    ['email', benchEmail],
    ['phone', benchPhone],
    ['ip', benchIp],
  ] as const) {
    console.log(`\n# ${name}`);
    await run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
