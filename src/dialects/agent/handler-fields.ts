/**
 * Fields that several agents' handlers share, validated the same way (with the same words in
 * `validate`) [C-SRC-3, G-SRC-1, A-CUR-1]: written once so the dialects cannot drift apart.
 */
import { z } from 'zod';

/** A handler's shell `command`: not empty, no NUL byte (it would cut the command short). */
export const commandText = z
  .string()
  .min(1, 'command must not be empty')
  .refine((s) => !s.includes('\0'), 'command contains a NUL byte');
