// End-to-end smoke check of the services scripts/infra/up.sh starts. Run after `source env.sh`:
//   NODE_NO_WARNINGS=1 node scripts/infra/smoke.mjs
// Kafka: creates a 6-partition topic, produces and consumes a message through a consumer group.
// S3: put / get / list / multipart (lib-storage Upload) / DeleteObjects, once with the SDK's default
// checksum settings and once with WHEN_REQUIRED. Prints one line per check; exits 1 on any failure.
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import {
  S3Client,
  PutObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  DeleteObjectsCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  CompleteMultipartUploadCommand,
  AbortMultipartUploadCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

const env = (k, d) => process.env[k] ?? d;
process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';
let failures = 0;
async function check(name, fn) {
  const t0 = Date.now();
  try {
    const detail = await fn();
    console.log(`ok   ${name} (${Date.now() - t0} ms)${detail ? ` ${detail}` : ''}`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name}: ${err?.name}: ${err?.message}`);
  }
}
const assert = (cond, msg) => {
  if (!cond) throw new Error(msg);
};
const guard = setTimeout(() => {
  console.log('FAIL smoke: global 120 s timeout');
  process.exit(1);
}, 120_000);

// ---------- Kafka ----------
const kafka = new Kafka({
  clientId: 'verity-infra-smoke',
  brokers: env('KAFKA_BROKERS', '127.0.0.1:19092').split(','),
  logLevel: logLevel.WARN,
});
const topic = `infra-smoke-${randomUUID().slice(0, 8)}`;
await check('kafka: create topic with 6 partitions', async () => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 6 }], waitForLeaders: true });
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    const n = meta.topics[0].partitions.length;
    assert(n === 6, `expected 6 partitions, got ${n}`);
    return `${topic}, partitions=${n}`;
  } finally {
    await admin.disconnect();
  }
});
await check('kafka: produce + consume via consumer group', async () => {
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: `${topic}-g` });
  await Promise.all([producer.connect(), consumer.connect()]);
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    const value = `hello-${randomUUID()}`;
    const got = new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no message within 30 s')), 30_000);
      void consumer.run({
        eachMessage: async ({ message, partition }) => {
          if (message.value?.toString() === value) {
            clearTimeout(t);
            resolve(partition);
          }
        },
      });
    });
    await producer.send({ topic, messages: [{ key: 'k1', value }] });
    const partition = await got;
    return `partition=${partition}`;
  } finally {
    await Promise.all([producer.disconnect(), consumer.disconnect()]);
  }
});
await check('kafka: auto-created topic gets num.partitions=6', async () => {
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  const auto = `${topic}-auto`;
  try {
    await producer.send({ topic: auto, messages: [{ value: 'x' }] });
  } finally {
    await producer.disconnect();
  }
  const admin = kafka.admin();
  await admin.connect();
  try {
    const meta = await admin.fetchTopicMetadata({ topics: [auto] });
    const n = meta.topics[0].partitions.length;
    assert(n === 6, `expected 6, got ${n}`);
    await admin.deleteTopics({ topics: [topic, auto] });
    return `partitions=${n}`;
  } finally {
    await admin.disconnect();
  }
});

// ---------- S3 ----------
const Bucket = env('S3_BUCKET', 'verity');
const base = {
  endpoint: env('S3_ENDPOINT', 'http://127.0.0.1:19000'),
  region: env('S3_REGION', 'us-east-1'),
  forcePathStyle: true, // s3proxy serves path-style; virtual-host style would need DNS for verity.127.0.0.1
  credentials: {
    accessKeyId: env('S3_ACCESS_KEY_ID', 'verity'),
    secretAccessKey: env('S3_SECRET_ACCESS_KEY', 'verity-secret-key'),
  },
};
const variants = {
  'sdk-default-checksums': {},
  'when-required': {
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  },
};
for (const [label, extra] of Object.entries(variants)) {
  const s3 = new S3Client({ ...base, ...extra });
  const prefix = `infra-smoke/${label}/${randomUUID().slice(0, 8)}/`;
  await check(`s3[${label}]: put + get`, async () => {
    await s3.send(
      new PutObjectCommand({
        Bucket,
        Key: `${prefix}a.txt`,
        Body: 'hello s3',
        ContentType: 'text/plain',
      }),
    );
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: `${prefix}a.txt` }));
    const body = await got.Body.transformToString();
    assert(body === 'hello s3', `body mismatch: ${body}`);
    return `content-type=${got.ContentType}`;
  });
  const size = 11 * 1024 * 1024 + 17; // 3 parts at the 5 MiB minimum part size
  const big = Buffer.alloc(size);
  for (let i = 0; i < size; i++) big[i] = i % 251;
  await check(`s3[${label}]: multipart Upload (lib-storage, 5 MiB parts)`, async () => {
    const up = new Upload({
      client: s3,
      params: { Bucket, Key: `${prefix}big.bin`, Body: big },
      partSize: 5 * 1024 * 1024,
      queueSize: 2,
    });
    const res = await up.done();
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: `${prefix}big.bin` }));
    const bytes = Buffer.from(await got.Body.transformToByteArray());
    assert(bytes.equals(big), 'downloaded bytes differ');
    return `etag=${res.ETag} size=${bytes.length}`;
  });
  await check(`s3[${label}]: list`, async () => {
    const res = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: prefix }));
    const keys = (res.Contents ?? []).map((c) => c.Key.slice(prefix.length)).sort();
    assert(keys.join() === 'a.txt,big.bin', `keys: ${keys.join()}`);
    return keys.join(' ');
  });
  await check(`s3[${label}]: DeleteObjects (checksum is mandatory for this call)`, async () => {
    const res = await s3.send(
      new DeleteObjectsCommand({
        Bucket,
        Delete: { Objects: [{ Key: `${prefix}a.txt` }, { Key: `${prefix}big.bin` }] },
      }),
    );
    const left = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: prefix }));
    assert((left.KeyCount ?? 0) === 0, `${left.KeyCount} keys left`);
    return `deleted=${res.Deleted?.length}`;
  });
  s3.destroy();
}

// Does the proxy enforce S3's 5 MiB minimum for non-last parts? (informational: real S3 does.)
await check('s3: 1 MiB non-last part on CompleteMultipartUpload', async () => {
  const s3 = new S3Client(base);
  const Key = `infra-smoke/small-parts-${randomUUID().slice(0, 8)}`;
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
  try {
    const part = Buffer.alloc(1024 * 1024, 1);
    const p1 = await s3.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: part }),
    );
    const p2 = await s3.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 2, Body: part }),
    );
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key,
        UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: p1.ETag },
            { PartNumber: 2, ETag: p2.ETag },
          ],
        },
      }),
    );
    await s3.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key }] } }));
    return 'accepted (proxy does NOT enforce the minimum; real S3 answers EntityTooSmall)';
  } catch (err) {
    await s3
      .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))
      .catch(() => undefined);
    if (err?.name === 'EntityTooSmall') return 'rejected with EntityTooSmall, like real S3';
    throw err;
  } finally {
    s3.destroy();
  }
});

clearTimeout(guard);
console.log(failures ? `smoke: ${failures} check(s) failed` : 'smoke: all checks passed');
process.exit(failures ? 1 : 0);
