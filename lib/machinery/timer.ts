// A timer as clock-driven components take it (the watch cache's bookmarks, the watch budget): injected
// so tests move time by hand (testing/fakeClock.ts) instead of sleeping.
export type SetTimer = (callback: () => void, ms: number) => { cancel(): void };
