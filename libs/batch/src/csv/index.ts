export { DEFAULT_MAX_LINE_BYTES, type UploadLimits } from './csv.grammar';
export { InputReader, type RowListener } from './input.reader';
export { fileTooLarge } from './input.errors';
export { UploadInspector, inspectUpload, type InspectionResult } from './upload.inspector';
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
export {
  DEFAULT_MAX_RECORD_BYTES,
  tableFormat,
  type TableColumn,
  type TableFormat,
} from './table.format';
export { TableReader, type TableRowListener } from './table.reader';
export { TableInspector } from './table.inspector';
export { readTableChunksInto, type TableRowCollector } from './table.chunks';
