// Health probes (HAProxy's /readyz every 2 s per replica, Docker's /livez every 10 s) were most of
// an idle replica's log at info level (~25 MB a day): a passing probe is logged at debug, a
// failing one stays at info, where it explains an outage.
const probePaths = ['/livez', '/readyz', '/healthz'];

export function requestLogLevel(isResourceRequest: boolean, path: string, status: number): 'debug' | 'info' {
  if (isResourceRequest || status >= 400) return 'info';
  const bare = path.split('?')[0];
  return probePaths.some((p) => bare === p || bare.startsWith(`${p}/`)) ? 'debug' : 'info';
}
