import type { AppConfig } from '@verity/config';
import { updateIpData } from '@verity/integrations';
import { UsageError } from '@verity/client/cli';

/**
 * `verity data update`: downloads fresh open-data lists into IP_DATA_DIR. A running service
 * picks the new files up without a restart.
 */
export async function dataCommand(config: AppConfig, argv: string[]): Promise<void> {
  if (argv[0] !== 'update') throw new UsageError('usage: verity data update');
  const results = await updateIpData(config);
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  if (results.some((r) => r.status === 'failed')) process.exitCode = 1;
}
