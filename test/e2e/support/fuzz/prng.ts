// The barrage's PRNG is the one the in-process fuzz tests use (lib/apiserver/testing/fuzz).
export { defaultFuzzSeed, fuzzSeed, Prng } from '../../../../lib/apiserver/testing/fuzz/prng';
