export { DEFAULT_MAX_LINE_BYTES, type UploadLimits } from './csv.grammar';
export { InputReader, type RowListener } from './input.reader';
export { UploadInspector, inspectUpload, type InspectionResult } from './upload.inspector';
export { readChunks, readChunksInto, type RowChunk, type RowCollector } from './chunk.reader';
export { encodeCell, encodeLine, neutralizeFormula, type CellValue } from './csv.cell';
export {
  csvHeader,
  formatResultRow,
  type InvalidIpRow,
  type ResultRowInput,
} from './result.writer';
export { LineBuffer } from './line.buffer';
