import { isStorableText } from './storable-text';

/**
 * The deepest nesting of arrays and objects a JSON body may have (the body itself is level 1).
 * No request of the API nests beyond 3; the limit bounds what any later walk of a body costs.
 */
export const MAX_BODY_DEPTH = 64;

/** What makes a parsed JSON body unacceptable before its schema is checked. */
export type BodyProblem =
  | { kind: 'too_deep' }
  /** `path` (`a.b.0`) names the key or string that cannot be stored; '' is the body itself. */
  | { kind: 'unstorable'; path: string };

/** An array or object being walked: its keys, the next one to visit, and how it was reached. */
interface Frame {
  node: object;
  keys: string[];
  next: number;
  segment: string;
}

/**
 * The first problem of a parsed JSON body in document order, or undefined. Walks with an
 * explicit stack, never by recursion: the body is untrusted, and a recursive walk of
 * `[[[[…]]]]` ten thousand levels deep overflows the call stack. The stack never holds more
 * than MAX_BODY_DEPTH frames. A storable body (the usual case) allocates one frame and one key
 * list per container, no paths.
 */
export function firstBodyProblem(body: unknown): BodyProblem | undefined {
  if (typeof body === 'string')
    return isStorableText(body) ? undefined : { kind: 'unstorable', path: '' };
  if (body === null || typeof body !== 'object') return undefined;
  const frames: Frame[] = [{ node: body, keys: Object.keys(body), next: 0, segment: '' }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1];
    if (frame.next === frame.keys.length) {
      frames.pop();
      continue;
    }
    const key = frame.keys[frame.next++];
    if (!isStorableText(key))
      return { kind: 'unstorable', path: pathOf(frames, JSON.stringify(key).slice(1, -1)) };
    const value = (frame.node as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      if (!isStorableText(value)) return { kind: 'unstorable', path: pathOf(frames, key) };
    } else if (value !== null && typeof value === 'object') {
      if (frames.length === MAX_BODY_DEPTH) return { kind: 'too_deep' };
      frames.push({ node: value, keys: Object.keys(value), next: 0, segment: key });
    }
  }
  return undefined;
}

function pathOf(frames: Frame[], last: string): string {
  return [...frames.slice(1).map((f) => f.segment), last].join('.');
}
