import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FILE_NAME_CHARS, uploadFileName } from './upload-file-name';

describe('uploadFileName', () => {
  it('keeps a plain name as it was sent', () => {
    assert.equal(uploadFileName('leads 2026-11.csv'), 'leads 2026-11.csv');
    assert.equal(uploadFileName('clientes_é.csv'), 'clientes_é.csv');
  });

  it('is null when the part had no name or nothing printable is left', () => {
    assert.equal(uploadFileName(undefined), null);
    assert.equal(uploadFileName(''), null);
    assert.equal(uploadFileName(' \u0000\u202e '), null);
    assert.equal(uploadFileName('C:\\Users\\ana\\'), null);
  });

  it('keeps the base name of a path, Windows or POSIX', () => {
    assert.equal(uploadFileName('C:\\Users\\ana\\list.csv'), 'list.csv');
    assert.equal(uploadFileName('../../etc/list.csv'), 'list.csv');
  });

  it('removes control and direction-override characters', () => {
    assert.equal(uploadFileName('a\r\nb\tc.csv'), 'abc.csv');
    assert.equal(uploadFileName('invoice\u202Evsc.exe'), 'invoicevsc.exe');
  });

  it('cuts a long name to the limit in characters, keeping its extension', () => {
    const name = `${'ü'.repeat(400)}.csv`;
    const kept = uploadFileName(name)!;
    assert.equal([...kept].length, MAX_FILE_NAME_CHARS);
    assert.ok(kept.endsWith('ü.csv'));
    const noExtension = uploadFileName('x'.repeat(300))!;
    assert.equal(noExtension.length, MAX_FILE_NAME_CHARS);
  });
});
