import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Real processes and timers: keep files isolated but let them run in parallel.
    pool: 'forks',
    // Vitest's default is one worker less than the cores: on the 2-core machines that is one, and
    // the suite ran file after file (~650 s). The tests mostly wait on the processes they start,
    // so two files at once on 2 cores halve the wall time (~400 s) without starving either.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // [G-WARM-1] No `hookwerk hook` a test runs starts a daemon (one would outlive the test), even
    // one spawned with this process's environment; the warm-path tests turn it on for themselves.
    env: { HOOKWERK_DAEMON: 'off' },
  },
});
