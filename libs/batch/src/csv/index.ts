export { DEFAULT_MAX_LINE_BYTES, trimCell, type UploadLimits } from './csv.grammar';
export { UploadScanner, type RowListener } from './upload.scanner';
export { UploadInspector, inspectUpload, type InspectionResult } from './upload.inspector';
export { readChunks, type RowChunk } from './chunk.reader';
export { encodeCell, encodeLine, neutralizeFormula, type CellValue } from './csv.cell';
export {
  csvHeader,
  formatResultRow,
  type InvalidIpRow,
  type ResultRowInput,
} from './result.writer';
