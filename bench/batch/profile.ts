// CPU-profile owners for the batch pipeline's processes (api, ingest, scorer, verity start).
import type { ProfileCategories } from '../support/cpu-profile.summary';

/** Owners of CPU time in the batch pipeline, matched on the script URL (first match wins). */
export const BATCH_CATEGORIES: ProfileCategories = [
  ['kafka client (kafkajs)', /node_modules\/kafkajs/],
  ['s3 client (aws-sdk, smithy)', /node_modules\/(@aws-sdk|@smithy|@aws-crypto)/],
  ['redis/bull', /node_modules\/(bull|ioredis)/],
  ['postgres (pg, typeorm)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|typeorm)\//],
  [
    'csv reading (table reader, chunk reader, fast-csv)',
    /node_modules\/@?fast-csv|libs\/batch\/src\/csv\/(table\.(reader|header)|chunk|csv\.bytes|utf8|record|leading)|apps\/ingest\/src\/splitter\/(json|chunk)/,
  ],
  ['result row formatting', /libs\/batch\/src\/csv\/(result|csv\.cell)/],
  ['upload inspection', /libs\/batch\/src\/csv\/table\.inspector|apps\/api\/src\/batch/],
  [
    'phone engine (libphonenumber)',
    /node_modules\/libphonenumber|libs\/validation\/src\/phone|phone-data/,
  ],
  [
    'email engine',
    /libs\/validation\/src\/email|node_modules\/(punycode|tr46)|integrations\/src\/dns/,
  ],
  ['ip engine (mmdb)', /node_modules\/(maxmind|mmdb-lib)|libs\/validation\/src\/ip|ip-data/],
  ['logging (pino)', /node_modules\/(pino|sonic-boom|thread-stream)/],
  ['metrics (prom-client)', /node_modules\/prom-client|libs\/observability/],
  [
    'http server (fastify, busboy)',
    /node_modules\/(fastify|@fastify|busboy|@fastify\/busboy|find-my-way|avvio)/,
  ],
  ['nest, rxjs', /node_modules\/(@nestjs|rxjs)/],
  ['batch adapters & jobs', /libs\/batch\/src/],
  ['scorer / ingest app code', /apps\/(scorer|ingest)\/src/],
  ['other verity code', /dist\/(libs|apps)/],
  ['other node_modules', /node_modules/],
  ['node core (net, streams, zlib)', /^node:|internal\//],
];
