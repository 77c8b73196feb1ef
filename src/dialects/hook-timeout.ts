/**
 * [R-INST-1] Seconds an agent waits for the `hookwerk hook` entry `install` writes: far above its
 * normal run, below every agent's default (600 s Claude and Codex, 60 s Gemini CLI), so a hung
 * hook costs half a minute, not ten.
 */
export const HOOK_TIMEOUT_S = 30;
