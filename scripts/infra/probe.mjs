// Health probes used by up.sh: exit 0 when the service answers a real protocol request, 1 otherwise.
//   node scripts/infra/probe.mjs kafka   -> kafkajs admin metadata request (listTopics)
//   node scripts/infra/probe.mjs s3      -> HeadBucket on $S3_BUCKET, creating the bucket if missing
// Every attempt is bounded (connection + request timeouts) so up.sh's poll loop stays in control.
import { Kafka, logLevel } from 'kafkajs';
import { S3Client, HeadBucketCommand, CreateBucketCommand } from '@aws-sdk/client-s3';

const env = (name, fallback) => process.env[name] ?? fallback;
const hardTimeout = setTimeout(() => {
  console.error('probe: hard timeout');
  process.exit(1);
}, 8000);

async function probeKafka() {
  const kafka = new Kafka({
    clientId: 'verity-infra-probe',
    brokers: env('KAFKA_BROKERS', '127.0.0.1:19092').split(','),
    connectionTimeout: 1000,
    requestTimeout: 3000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

async function probeS3() {
  const bucket = env('S3_BUCKET', 'verity');
  const s3 = new S3Client({
    endpoint: env('S3_ENDPOINT', 'http://127.0.0.1:19000'),
    region: env('S3_REGION', 'us-east-1'),
    forcePathStyle: true,
    credentials: {
      accessKeyId: env('S3_ACCESS_KEY_ID', 'verity'),
      secretAccessKey: env('S3_SECRET_ACCESS_KEY', 'verity-secret-key'),
    },
    maxAttempts: 1,
  });
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }), {
      abortSignal: AbortSignal.timeout(3000),
    });
  } catch (err) {
    if (err?.$metadata?.httpStatusCode !== 404) throw err;
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } finally {
    s3.destroy();
  }
}

const which = process.argv[2];
const probes = { kafka: probeKafka, s3: probeS3 };
if (!(which in probes)) {
  console.error('usage: probe.mjs kafka|s3');
  process.exit(2);
}
try {
  await probes[which]();
  clearTimeout(hardTimeout);
} catch (err) {
  console.error(`probe ${which}: ${err?.name ?? 'Error'}: ${err?.message ?? err}`);
  process.exit(1);
}
