import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The MaxMind fixtures folder of the IP data specs, in the source tree (fixtures are not copied
 * into dist), found from `from` (this file, compiled or not) up to the repository root.
 */
export function maxmindFixtureDir(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return join(dir, 'libs/integrations/src/ip-data/__fixtures__/maxmind');
}
