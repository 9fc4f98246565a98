import { recordCells, type ChunkMessage } from '@verity/batch';
import { isCountryHint } from '@verity/validation';

/**
 * The country each row of a phone chunk is parsed with (docs/batch.md, "Phone numbers and their
 * country"): the job's `country_hint`, or with `country_column` the row's own cell of that
 * column; an empty cell falls back to the hint, and a cell that is not an ISO 3166-1 alpha-2
 * code leaves the row without a country (the number must then carry its country code).
 */
export function rowCountries(chunk: ChunkMessage): (row: number) => string | undefined {
  const { country, countryColumn, lines } = chunk;
  if (countryColumn === undefined || lines === undefined) return () => country;
  return (row) => {
    const cell = recordCells(lines[row])[countryColumn] ?? '';
    if (cell === '') return country;
    return isCountryHint(cell) ? cell : undefined;
  };
}
