// Compile-time ties between a zod schema and the plain type it stands for: `check<Same<A, B>>(true)`
// fails to compile when either side drifts.

export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const check = <T extends true>(_: T) => undefined;
