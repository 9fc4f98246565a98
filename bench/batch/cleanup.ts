// Removes what a distributed benchmark run left on the shared services: its Kafka topics and
// consumer groups, its Bull keys in Redis, and its blobs in S3.
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { batchNames, resultKey, uploadKey } from '@verity/batch';
import { createBlobStore } from '@verity/ports';
import { loadConfig } from '@verity/config';

/** Deletes the namespace's topics and groups, `bull:<ns>.*` keys, and the jobs' blobs. */
export async function cleanDistributed(
  namespace: string,
  env: Record<string, string>,
  jobIds: string[],
): Promise<string[]> {
  const notes: string[] = [];
  // The children inherit the service settings from our environment (scripts/infra/env.sh).
  const all: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) all[k] = v;
  env = { ...all, ...env };
  const names = batchNames(namespace);
  const kafka = new Kafka({
    brokers: (env.KAFKA_BROKERS ?? '').split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin
      .deleteGroups([names.scorerGroup, names.scorerRetryGroup, names.assemblerGroup])
      .catch(() => undefined);
    await admin.deleteTopics({
      topics: [names.chunksTopic, names.chunkRetriesTopic, names.progressTopic],
    });
  } catch (error) {
    notes.push(`kafka clean-up: ${String(error)}`);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `bull:${namespace}.*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } catch (error) {
    notes.push(`redis clean-up: ${String(error)}`);
  } finally {
    redis.disconnect();
  }
  try {
    const blobs = createBlobStore(loadConfig({ ...env, BLOB_STORE: 's3' }));
    for (const id of jobIds) {
      await blobs.delete(uploadKey(id)).catch(() => undefined);
      await blobs.deletePrefix(resultKey(id).replace(/result\.csv$/, ''));
    }
  } catch (error) {
    notes.push(`s3 clean-up: ${String(error)}`);
  }
  return notes;
}
