import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hasFrame,
  jsFrameLabel,
  KERNEL,
  readPerfSamples,
  splitPerfSamples,
  type PerfGroup,
} from './perf-stacks';

const NODE = '/opt/node/bin/node';

/** Three samples as `perf script -F tid,ip,sym,dso` prints them (frames innermost first). */
const SCRIPT = [
  ' 7619 ',
  '\tffffffff82203249 _raw_spin_unlock_irqrestore ([kernel.kallsyms])',
  '\tffffffff81e3513e sock_def_readable ([kernel.kallsyms])',
  '\tffffffff82022539 tcp_sendmsg ([kernel.kallsyms])',
  `\t         1e20d35 node::StreamBase::WriteString<(node::encoding)1> (${NODE})`,
  "\t    7f0a1c2d3e4f JS:*'onSendEnd /work/main/node_modules/fastify/lib/reply.js:599:20 (/tmp/perf-7619.map)",
  '',
  ' 7619 ',
  "\t    7f0a1c2d3f00 JS:*'hash node:internal/crypto/hash:294:14 (/tmp/perf-7619.map)",
  "\t    7f0a1c2d3f10 JS:*'cachedPrincipal /work/main/dist/libs/accounts/src/api-keys.service.js:46:20 (/tmp/perf-7619.map)",
  "\t    7f0a1c2d3f20 JS:*'admit /work/main/dist/apps/api/src/auth/api-call.hook.js:52:19 (/tmp/perf-7619.map)",
  `\t          401ba7 node::InternalMakeCallback (${NODE})`,
  '',
  ' 7624 ',
  `\t          5f5197 v8::platform::DefaultJobWorker::Run (${NODE})`,
  '\t           2724a start_thread (/usr/lib/x86_64-linux-gnu/libc.so.6)',
  '',
];

describe('readPerfSamples', () => {
  it('reads each sample with its thread and frames, symbols with spaces and parentheses kept whole', async () => {
    const samples = await readPerfSamples(SCRIPT);
    assert.deepEqual(
      samples.map((s) => [s.tid, s.frames.length]),
      [
        [7619, 5],
        [7619, 4],
        [7624, 2],
      ],
    );
    assert.deepEqual(samples[0].frames[3], {
      sym: 'node::StreamBase::WriteString<(node::encoding)1>',
      dso: NODE,
    });
    assert.equal(samples[0].frames[0].dso, KERNEL);
  });

  it('reads a last sample without a closing blank line', async () => {
    const samples = await readPerfSamples(SCRIPT.slice(0, -1));
    assert.equal(samples.length, 3);
    assert.equal(samples[2].frames.length, 2);
  });
});

describe('splitPerfSamples', () => {
  const groups: PerfGroup[] = [
    { label: 'kernel', matches: (s) => s.frames[0]?.dso === KERNEL },
    { label: 'writes', matches: (s) => hasFrame(s, 'tcp_sendmsg') },
    { label: 'other threads', matches: (s) => s.tid !== 7619 },
  ];

  it('counts a sample for every group it matches, as a share of all samples', async () => {
    const split = splitPerfSamples(await readPerfSamples(SCRIPT), groups, /\/dist\//);
    assert.equal(split.samples, 3);
    assert.deepEqual(
      [...split.groups],
      [
        ['kernel', 1 / 3],
        ['writes', 1 / 3],
        ['other threads', 1 / 3],
      ],
    );
  });

  it('gives each sample to the own frame nearest the sampled one, with what that frame called', async () => {
    const split = splitPerfSamples(await readPerfSamples(SCRIPT), groups, /\/dist\//);
    assert.equal(split.ownCode, 1 / 3);
    assert.deepEqual(
      [...split.ownFunctions],
      [['cachedPrincipal libs/accounts/src/api-keys.service.js:46', 1 / 3]],
    );
  });

  it('splits nothing into zero shares', () => {
    const split = splitPerfSamples([], groups, /\/dist\//);
    assert.equal(split.samples, 0);
    assert.equal(split.ownCode, 0);
    assert.deepEqual([...split.groups.values()], [0, 0, 0]);
  });
});

describe('jsFrameLabel', () => {
  it('names a JavaScript frame by function and path from dist/ on, without the column', () => {
    assert.equal(
      jsFrameLabel("JS:*'charge /work/main/dist/apps/api/src/billing/billing.service.js:37:17"),
      'charge apps/api/src/billing/billing.service.js:37',
    );
    assert.equal(
      jsFrameLabel("JS:~' /work/main/dist/apps/api/src/http/request-hooks.js:20:34"),
      '(anonymous) apps/api/src/http/request-hooks.js:20',
    );
  });

  it('leaves other symbols as they are', () => {
    assert.equal(jsFrameLabel('tcp_sendmsg'), 'tcp_sendmsg');
  });
});
