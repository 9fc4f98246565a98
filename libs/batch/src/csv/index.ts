export { DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_RECORD_BYTES, type UploadLimits } from './csv.grammar';
export { fileTooLarge, InputRefusal } from './input.errors';
export { readChunks, readChunksInto, type RowChunk, type RowCollector } from './chunk.reader';
export { encodeCell, encodeLine, neutralizeFormula, type CellValue } from './csv.cell';
export {
  csvHeader,
  formatResultRow,
  resultColumns,
  type InvalidIpRow,
  type ResultColumnsOf,
  type ResultRowInput,
} from './result.writer';
export { resultHeader, type ResultFileFormat } from './result.header';
export { LineBuffer } from './line.buffer';
export { recordCells, resolveColumn } from './table.header';
export {
  columnOf,
  SINGLE_COLUMN,
  storedFormat,
  tableFormat,
  type TableColumn,
  type TableFormat,
  type TableInput,
} from './table.format';
export { TableReader, type TableRowListener } from './table.reader';
export { TableInspector, type InspectorOptions } from './table.inspector';
export { VerdictCounter, VerdictFilter, parseOnly, parseRecord } from './result.verdicts';
export { filterResultRows } from './result.filter';
