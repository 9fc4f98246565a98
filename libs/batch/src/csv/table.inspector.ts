import type { UploadLimits } from './csv.grammar';
import { ReaderTransform } from './reader.stream';
import type { TableFormat } from './table.format';
import { TableReader, type TableRowListener } from './table.reader';

/**
 * Pass-through stream for `upload → inspector → blob store` of a multi-column file: bytes go
 * through unchanged while TableReader checks them (ReaderTransform), and what the first record
 * said about the file is read here once it has been seen.
 */
export class TableInspector extends ReaderTransform<TableReader> {
  constructor(limits: UploadLimits, format: TableFormat, onRow?: TableRowListener) {
    super(new TableReader(limits, format, onRow));
  }

  /** The header record as in the file, or null (known once the first record has been read). */
  get header(): string | null {
    return this.reader.header;
  }

  /** 0-based index of the chosen column; -1 until the first record has been read. */
  get columnIndex(): number {
    return this.reader.columnIndex;
  }

  /** Cells per record; -1 until the first record has been read. */
  get width(): number {
    return this.reader.width;
  }
}
