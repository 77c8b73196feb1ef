/**
 * What a hook that gave no usable answer (timeout, crash, invalid output, a refused consent
 * check) means: `open` lets the action go on, `closed` denies it [L-RUN-4, C-RUN-4].
 */
export type FailMode = 'open' | 'closed';
