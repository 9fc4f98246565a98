import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The MaxMind fixtures folder, from the source tree or from a compiled copy under dist/. */
export function maxmindFixtureDir(): string {
  const beside = join(__dirname, 'maxmind');
  if (existsSync(beside)) return beside;
  return join(process.cwd(), 'libs', 'integrations', 'src', 'ip-data', '__fixtures__', 'maxmind');
}
