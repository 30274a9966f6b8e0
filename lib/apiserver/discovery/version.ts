// GET /version (discovery-and-health.md §3). Clients parse major/minor and gitVersion; the build
// fields describe this server's own build, so the Go-specific ones carry the Node runtime.
import { serverVersion } from '../../api';
import type { VersionInfo } from './types';

export interface VersionOptions {
  gitCommit?: string;
  gitTreeState?: string;
  /** RFC 3339, e.g. 2026-01-01T00:00:00Z. */
  buildDate?: string;
  emulation?: { major: string; minor: string };
  minCompatibility?: { major: string; minor: string };
  /** Defaults to process.platform/process.arch in Go's spelling. */
  platform?: string;
}

const goArch: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };

export function defaultPlatform(platform: string = process.platform, arch: string = process.arch): string {
  return `${platform === 'win32' ? 'windows' : platform}/${goArch[arch] ?? arch}`;
}

export function versionInfo(opts: VersionOptions = {}): VersionInfo {
  return {
    major: serverVersion.major,
    minor: serverVersion.minor,
    ...(opts.emulation ? { emulationMajor: opts.emulation.major, emulationMinor: opts.emulation.minor } : {}),
    ...(opts.minCompatibility ? { minCompatibilityMajor: opts.minCompatibility.major, minCompatibilityMinor: opts.minCompatibility.minor } : {}),
    gitVersion: serverVersion.gitVersion,
    gitCommit: opts.gitCommit ?? '',
    gitTreeState: opts.gitTreeState ?? '',
    buildDate: opts.buildDate ?? '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'node',
    platform: opts.platform ?? defaultPlatform(),
  };
}
