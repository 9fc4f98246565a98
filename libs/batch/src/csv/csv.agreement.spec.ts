import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readChunks } from './chunk.reader';
import { SINGLE_COLUMN } from './table.format';
import { TableReader } from './table.reader';

// The upload counts rows with the reader's counting path (no listener), the splitter reads
// them with its extracting path through readChunks (values kept as ranges of the read buffers,
// copied when they cross one). All must see the same rows, or a job would be charged for a
// row count its output does not have.
const CORPUS: Record<string, string> = {
  'plain LF': 'a@x.io\nb@x.io\n',
  BOM: '\ufeffa@x.io\nb@x.io\n',
  'BOM then quoted': '\ufeff"a,b@x.io"\n',
  CRLF: 'a@x.io\r\nb@x.io\r\n',
  'bare CR': 'a@x.io\rb@x.io\r',
  'mixed line ends': 'a\r\nb\nc\rd',
  'quoted comma': '"Doe, John <j@x.io>"\n"1,2"\n',
  'escaped quotes': '"""john doe""@x.io"\n"a""b"\n',
  'quote inside unquoted value': 'a"b@x.io\n',
  'blank lines': '\n\na\n\n\nb\n\n',
  'whitespace lines': ' \n\t\na\n \t \r\nb\n',
  'empty quoted lines': '""\n"  "\na\n',
  'padding around values': '  a@x.io  \n\t"  b@x.io "\t\n',
  'missing final newline': 'a\nb',
  'single row no newline': '+14155552671',
  emoji: '\u{1F600}@x.io\n\u{1F469}\u200d\u{1F4BB}@x.io\n',
  IDN: 'user@b\u00fccher.de\n\u4f8b\u3048@\u4f8b\u3048.\u30c6\u30b9\u30c8\n\u0645\u062b\u0627\u0644@x.io\n',
  'non-ASCII spaces kept': '\u00a0a\u00a0\n',
  'U+FEC0 is not a BOM': '\ufec0\n',
  'U+FFxx (EF BF ..) is content': '\uffe0a\n\uffefb\n',
  'formula-looking input': '=HYPERLINK("x")\n"=1,2"\n',
  IPs: '1.1.1.1\n::1\n2001:db8::1\n',
};

function inspectorValues(bytes: Buffer, size: number): { rows: number; values: string[] } {
  const limits = { maxRows: 1000, maxBytes: 1 << 20 };
  const values: string[] = [];
  const extracting = new TableReader(limits, SINGLE_COLUMN, (b, start, end) =>
    values.push(b.toString('utf8', start, end)),
  );
  const counting = new TableReader(limits, SINGLE_COLUMN); // the API's path, without a listener
  for (let i = 0; i < bytes.length; i += size) {
    extracting.write(bytes.subarray(i, i + size));
    counting.write(bytes.subarray(i, i + size));
  }
  const rows = extracting.end();
  assert.equal(counting.end(), rows, 'counting and extracting paths agree');
  return { rows, values };
}

async function readerValues(bytes: Buffer, size: number): Promise<string[]> {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  const values: string[] = [];
  for await (const chunk of readChunks(Readable.from(parts), 3)) values.push(...chunk.rows);
  return values;
}

describe('upload count and split read agree', () => {
  for (const [name, text] of Object.entries(CORPUS)) {
    it(name, async () => {
      const bytes = Buffer.from(text, 'utf8');
      const expected = await readerValues(bytes, bytes.length);
      assert.ok(expected.length > 0, 'corpus entries have rows');
      for (const size of [1, 2, 5, bytes.length]) {
        const inspected = inspectorValues(bytes, size);
        assert.equal(inspected.rows, expected.length, `row count, chunk size ${size}`);
        assert.deepEqual(inspected.values, expected, `values, chunk size ${size}`);
        assert.deepEqual(await readerValues(bytes, size), expected, `reader, chunk size ${size}`);
      }
    });
  }

  it('gives the expected values for the tricky entries', async () => {
    const read = (name: string) => readerValues(Buffer.from(CORPUS[name], 'utf8'), 1 << 16);
    assert.deepEqual(await read('escaped quotes'), ['"john doe"@x.io', 'a"b']);
    assert.deepEqual(await read('padding around values'), ['a@x.io', 'b@x.io']);
    assert.deepEqual(await read('BOM then quoted'), ['a,b@x.io']);
    assert.deepEqual(await read('non-ASCII spaces kept'), ['\u00a0a\u00a0']);
  });
});
