/** The longest file name kept, in characters; longer names keep their start and extension. */
export const MAX_FILE_NAME_CHARS = 255;

// C0 and C1 control characters, DEL, and the bidirectional overrides that can make a name
// display as another (U+202A–U+202E, U+2066–U+2069).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The name an upload's file part carried, as the job keeps it: the base name only (a browser or
 * client may send a path), control and direction-override characters removed, trimmed, and cut
 * to MAX_FILE_NAME_CHARS characters keeping the extension. Null when nothing is left.
 */
export function uploadFileName(sent: string | undefined): string | null {
  if (sent === undefined) return null;
  const base = sent.split(/[/\\]/u).pop() ?? '';
  const clean = base.replace(UNSAFE, '').trim();
  if (clean === '') return null;
  const chars = [...clean];
  if (chars.length <= MAX_FILE_NAME_CHARS) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 ? [...clean.slice(dot)] : [];
  if (extension.length >= 16) return chars.slice(0, MAX_FILE_NAME_CHARS).join('');
  return chars.slice(0, MAX_FILE_NAME_CHARS - extension.length).join('') + extension.join('');
}
