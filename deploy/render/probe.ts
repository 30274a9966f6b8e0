// The HTTPS health probe run inside the svc image (no curl there): GET the URL, trust any
// certificate (the probe checks liveness, not identity), exit 0 on 200 only. Anonymous requests
// may read /livez, /readyz and /healthz (the bootstrap system:public-info-viewer role).
// deploy/Dockerfile's HEALTHCHECK carries the same script (checked by deploy/generated.test.ts).
export const probeScript =
  "require('https').get(process.argv[1],{rejectUnauthorized:false,timeout:4000},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))";

export const probeCommand = (url: string): string[] => ['CMD', 'node', '-e', probeScript, url];
