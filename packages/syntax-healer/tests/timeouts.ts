/**
 * One timeout for the suites that compile hundreds of programs or start a child Node (seconds of CPU on a quiet
 * machine). On the shared 2-core machine at load 15-20 they ran past vitest's 5 s default while passing every
 * assertion (the seeded fuzz was reported flaky under load even at 60 s); the bound still catches a hang. It is above
 * the 2 minutes every project gets (vitest.shared.ts' `hangBounds`).
 */
export const HEAVY_TEST_TIMEOUT_MS = 300_000;
