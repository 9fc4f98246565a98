import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, rawRequest, startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { partlyScoredJob } from './batch-helpers';
import {
  calledOperations,
  compileJavaFlow,
  compileTypeScriptFlow,
  generatorJar,
  javaToolsMissing,
  openApiGenerator,
  runFlow,
} from './openapi-generator';

const run = promisify(execFile);
const REPO = resolve(__dirname, '../../..');

const OPERATION_IDS = [
  'addCredits',
  'cancelBatch',
  'createAccount',
  'createBatch',
  'createKey',
  'deleteKey',
  'downloadBatchResult',
  'feedbackStats',
  'getBatch',
  'getIpIntel',
  'listBatches',
  'listKeys',
  'ping',
  'reportFeedback',
  'rotateKey',
  'validateEmail',
  'validatePhone',
  'verify',
];

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: object }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}

// Without Java or Maven the generated clients cannot be built: skipped with the reason, except
// in CI, which always has them (.ci/run), where the test fails instead.
const missingJava = javaToolsMissing();
const skipJava = missingJava !== null && process.env.CI !== 'true' ? missingJava : false;

describe('/v1/openapi.json as client generators and linters read it', () => {
  let stack: TestStack;
  let dir: string;
  let docPath: string;
  let document: {
    servers: { url: string }[];
    paths: Record<string, Record<string, Operation>>;
    components: {
      schemas: Record<string, unknown>;
      securitySchemes: Record<string, { description?: string }>;
    };
  };
  const operations = () => Object.values(document.paths).flatMap((path) => Object.values(path));
  /**
   * The API key and id of a processing job of its own account with 2 of its 5 rows scored: the
   * flow cancels it and downloads its partial_result_url.
   */
  const cutShort = async (n: number): Promise<[string, string]> => {
    const account = await stack.account(10, `partial-${n}`);
    const id = `job_${String(n).padStart(32, 'c')}`;
    await partlyScoredJob(stack, account.accountId, id, 5, [['a@x.io,scored', 'b@x.io,scored']]);
    return [account.apiKey, id];
  };

  before(async () => {
    // The embedded default, batch pipeline included: API, ingest and scorer in one process.
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      modules: [IngestModule, ScorerModule],
    });
    dir = await mkdtemp(join(tmpdir(), 'verity-openapi-'));
    const served = await stack.client.get('/v1/openapi.json');
    assert.equal(served.status, 200);
    document = served.body;
    docPath = join(dir, 'openapi.json');
    await writeFile(docPath, JSON.stringify(document));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await stack.close();
  });

  it('names every operation, its security and the server it was fetched from', () => {
    assert.deepEqual(
      operations()
        .map((o) => o.operationId)
        .sort(),
      OPERATION_IDS,
    );
    assert.deepEqual(document.servers, [{ url: stack.client.baseUrl }]);
    for (const op of operations()) {
      const expected =
        op.operationId === 'downloadBatchResult'
          ? []
          : [{ [/Account|Credits/.test(op.operationId) ? 'AdminToken' : 'ApiKey']: [] }];
      assert.deepEqual(op.security, expected, op.operationId);
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema;
        assert.deepEqual(schema, { $ref: '#/components/schemas/Error' }, op.operationId);
      }
    }
    for (const name of ['EmailResult', 'PhoneResult', 'IpResult', 'VerifyResult', 'BatchJob'])
      assert.ok(document.components.schemas[name], name);
    for (const name of ['ApiKey', 'IssuedApiKey', 'PingResponse', 'Error', 'BatchCreateForm'])
      assert.ok(document.components.schemas[name], name);
  });

  it('describes parameters, bodies and answers as the server handles them', () => {
    const op = (path: string, method: string) => document.paths[path][method];
    const param = (path: string, method: string, name: string) =>
      op(path, method).parameters?.find((p) => p.name === name);
    const schemas = document.components.schemas as Record<string, any>;
    for (const [path, method] of [
      ['/v1/batch/{jobId}', 'get'],
      ['/v1/batch/{jobId}', 'delete'],
      ['/v1/batch/{jobId}/download', 'get'],
    ]) {
      const jobId = param(path, method, 'jobId');
      assert.deepEqual(
        [jobId?.in, jobId?.required, jobId?.schema],
        ['path', true, { type: 'string' }],
      );
    }
    const list = op('/v1/batch', 'get');
    assert.deepEqual(
      list.parameters?.map((p) => [p.name, p.in, p.required ?? false, p.schema]),
      [
        ['limit', 'query', false, { type: 'integer', minimum: 1, maximum: 100, default: 20 }],
        ['cursor', 'query', false, { type: 'string' }],
        [
          'status',
          'query',
          false,
          { type: 'string', enum: ['queued', 'processing', 'done', 'failed', 'cancelled'] },
        ],
      ],
    );
    const jsonOf = (response: Operation['responses'][string]) =>
      response.content?.['application/json']?.schema;
    assert.deepEqual(jsonOf(list.responses['200']), {
      $ref: '#/components/schemas/BatchJobList',
    });
    assert.deepEqual(schemas.BatchJobList.required, ['data', 'next_cursor']);
    assert.deepEqual(schemas.BatchJobList.properties.data.items, {
      $ref: '#/components/schemas/BatchJob',
    });
    assert.equal(schemas.BatchJobList.properties.next_cursor.nullable, true);
    const cancel = op('/v1/batch/{jobId}', 'delete');
    assert.deepEqual(jsonOf(cancel.responses['200']), { $ref: '#/components/schemas/BatchJob' });
    for (const [operation, statuses] of [
      [list, ['200', '400', '401', '429', '500', '503']],
      [cancel, ['200', '401', '404', '422', '429', '500', '503']],
    ] as const)
      assert.deepEqual(Object.keys(operation.responses).sort(), statuses);
    assert.ok(schemas.BatchJobError.properties.code.enum.includes('cancelled'));
    assert.equal(schemas.BatchJob.properties.file_name.nullable, true);
    const sig = param('/v1/batch/{jobId}/download', 'get', 'sig');
    assert.deepEqual([sig?.in, sig?.required, sig?.schema], ['query', true, { type: 'string' }]);
    const download = op('/v1/batch/{jobId}/download', 'get').responses['200'];
    assert.deepEqual(download.content, { 'text/csv': { schema: { type: 'string' } } });
    assert.equal(op('/v1/keys/{id}', 'delete').responses['204'].content, undefined);
    assert.deepEqual(op('/v1/batch', 'post').requestBody?.content, {
      'multipart/form-data': { schema: { $ref: '#/components/schemas/BatchCreateForm' } },
    });
    const form = schemas.BatchCreateForm;
    assert.deepEqual(form.required, ['type', 'file']);
    assert.deepEqual(form.properties.type.enum, ['email', 'phone', 'ip']);
    assert.equal(form.properties.file.format, 'binary');
    assert.equal(form.properties.webhook_url.type, 'string');
    // A phone job's country: text form fields, shown on the job when it has them.
    for (const field of ['country_hint', 'country_column']) {
      assert.equal(form.properties[field].type, 'string', field);
      assert.match(form.properties[field].description, /phone jobs/, field);
    }
    assert.equal(schemas.BatchJob.properties.country_hint.type, 'string');
    assert.equal(schemas.BatchJob.properties.country_column.type, 'integer');
    assert.ok(!schemas.BatchJob.required.includes('country_hint'));
    assert.equal(schemas.VerifyRequest.properties.country_hint.type, 'string');
    // Always present but not `required`: okhttp-gson clients of OpenAPI Generator 7.10.0 fail
    // on a required object that is null (docs/api.md).
    assert.ok(!schemas.PhoneResult.required.includes('hlr'));
    const { type, nullable, allOf } = schemas.PhoneResult.properties.hlr;
    assert.deepEqual(
      { type, nullable, allOf },
      { type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/HlrResult' }] },
    );
    const { enum: values, ...free } = schemas.PingResponse.properties.credits_used;
    assert.equal(values, undefined);
    assert.deepEqual(
      [free.type, free.minimum, free.maximum, free.format],
      ['integer', 0, 0, 'int32'],
    );
    // A key's mode: optional in the request (live by default), always in the answer.
    const requested = schemas.CreateKeyRequest;
    assert.deepEqual(
      [requested.properties.mode.enum, requested.properties.mode.default],
      [['live', 'test'], 'live'],
    );
    assert.deepEqual(requested.required, ['name']);
    assert.deepEqual(schemas.ApiKey.properties.mode.enum, ['live', 'test']);
    assert.match(schemas.ApiKey.properties.mode.description, /vrt_test_/);
    // The summary: a nullable object (so not listed as required, as hlr), its counts per
    // verdict; only= on the download, optional.
    assert.ok(!schemas.BatchJob.required.includes('summary'));
    assert.ok(schemas.BatchJob.properties.summary);
    assert.deepEqual(Object.keys(schemas.BatchJobSummary.properties), [
      'deliverable',
      'risky',
      'undeliverable',
      'unknown',
      'valid',
      'vpn',
      'proxy',
      'tor',
      'datacenter',
      'clean',
      'invalid',
    ]);
    const only = param('/v1/batch/{jobId}/download', 'get', 'only');
    assert.deepEqual(
      [only?.in, only?.required, only?.schema],
      ['query', false, { type: 'string' }],
    );
    assert.ok(schemas.ApiKey.required.includes('mode'));
    assert.match(document.components.securitySchemes.ApiKey.description ?? '', /vrt_test_/);
    for (const path of ['/v1/ip/intel', '/v1/verify']) {
      const explain = param(path, 'post', 'explain');
      assert.deepEqual(
        [explain?.in, explain?.schema],
        ['query', { type: 'boolean', default: false }],
      );
    }
  });

  it('names PUBLIC_URL as the server when set, never the Host header a client sends', async () => {
    const forged = await rawRequest(stack.client.baseUrl, [
      'GET /v1/openapi.json HTTP/1.1\r\nHost: attacker.example\r\n' +
        'X-Forwarded-Host: attacker.example\r\nConnection: close\r\n\r\n',
    ]);
    assert.ok(forged);
    assert.equal(forged.status, 200);
    assert.deepEqual(JSON.parse(forged.body).servers, [{ url: stack.client.baseUrl }]);
    const behindProxy = await startTestStack({
      env: { PUBLIC_URL: 'https://verity.example.com/' },
    });
    try {
      const served = await behindProxy.client.get('/v1/openapi.json');
      assert.deepEqual(served.body.servers, [{ url: 'https://verity.example.com' }]);
    } finally {
      await behindProxy.close();
    }
  });

  it('passes Redocly CLI’s recommended rules with no error and no warning', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        join(REPO, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        '--config',
        join(REPO, 'redocly.yaml'),
        '--format',
        'json',
        docPath,
      ],
      // Telemetry is off in redocly.yaml too; no notice checks either.
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' } },
    );
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  });

  describe('OpenAPI Generator (from Maven Central)', { skip: skipJava }, () => {
    let jar: string;
    before(async () => {
      if (missingJava !== null) throw new Error(missingJava);
      jar = await generatorJar();
    });

    it('validates the document with no issue, recommendations included', async () => {
      const output = await openApiGenerator(jar, ['validate', '--recommend', '-i', docPath]);
      assert.match(output, /No validation issues detected\./, output);
    });

    it('typescript-fetch: the generated client compiles and runs every operation', async (t) => {
      const out = join(dir, 'typescript');
      await openApiGenerator(jar, [
        'generate',
        '-g',
        'typescript-fetch',
        '-i',
        docPath,
        '-o',
        join(out, 'generated'),
      ]);
      const flow = await compileTypeScriptFlow(out);
      const stdout = await runFlow(process.execPath, [flow, ADMIN_TOKEN, ...(await cutShort(1))]);
      for (const line of stdout.trim().split('\n')) t.diagnostic(line);
      assert.deepEqual(calledOperations(stdout), OPERATION_IDS, stdout);
    });

    it('java (okhttp-gson): the generated client compiles and runs every operation', async (t) => {
      const out = join(dir, 'java');
      await openApiGenerator(jar, ['generate', '-g', 'java', '-i', docPath, '-o', out]);
      const classpath = await compileJavaFlow(out);
      const stdout = await runFlow('java', [
        '-cp',
        classpath,
        'VerityFlow',
        ADMIN_TOKEN,
        ...(await cutShort(2)),
      ]);
      for (const line of stdout.trim().split('\n')) t.diagnostic(line);
      assert.deepEqual(calledOperations(stdout), OPERATION_IDS, stdout);
    });
  });
});
