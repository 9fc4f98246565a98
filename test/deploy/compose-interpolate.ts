import type { Json } from './deploy-files';

const VARIABLE =
  /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** A `${VAR}` reference without a default, which would be empty on a plain `docker compose up`. */
export interface MissingDefault {
  readonly variable: string;
  readonly where: string;
}

/**
 * Applies Compose variable interpolation as if no variable were set (the out-of-the-box
 * `docker compose up`): `${X:-d}` and `${X-d}` become `d`, `$$` becomes `$`, and a bare
 * `${X}` or `$X` becomes empty and is reported.
 */
export function interpolateUnset(value: Json, missing: MissingDefault[], where = ''): Json {
  if (typeof value === 'string') {
    return value.replace(
      VARIABLE,
      (all, braced?: string, op?: string, def?: string, bare?: string) => {
        if (all === '$$') return '$';
        if (op === '-' || op === ':-') return def ?? '';
        missing.push({ variable: braced ?? bare ?? all, where });
        return '';
      },
    );
  }
  if (Array.isArray(value))
    return value.map((v, i) => interpolateUnset(v, missing, `${where}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, interpolateUnset(v, missing, `${where}.${k}`)]),
    );
  }
  return value;
}
