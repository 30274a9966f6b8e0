// Requests to a deprecated group/version (spec §6.6, upstream's endpoints/deprecation and the
// request metrics): a Warning header, the audit annotations svc.io/deprecated and
// svc.io/removed-release, and apiserver_requested_deprecated_apis set to 1.
import type { ServerResponse } from 'node:http';
import { apiVersionOf, deprecationWarning, isDeprecated, lifecycleReleases, removedRelease, type Release, type ResourceInfo } from '../../api';
import { currentRelease } from '../../api';
import { auditAnnotationKeys, type AuditContext } from '../../audit';
import type { ApiServerMetrics } from '../metrics';
import { warningHeaderValues } from '../warningHeader';

export interface Deprecation {
  warning: string;
  /** "<major>.<minor>", or "" when no removal is planned. */
  removedRelease: string;
}

/** The deprecation of a resource's version at `current`, or undefined when it is not deprecated. */
export function deprecationOf(info: ResourceInfo, current: Release = currentRelease): Deprecation | undefined {
  if (info.deprecationWarning) return { warning: info.deprecationWarning, removedRelease: '' };
  const l = lifecycleReleases(info.version, info.lifecycle);
  if (!isDeprecated(l, current)) return undefined;
  return { warning: deprecationWarning(apiVersionOf(info), info.kind, l), removedRelease: removedRelease(l) };
}

/**
 * Marks the request: the header is set now so that every answer carries it (errors and watches
 * too); handlers that write their own warnings start from `warnings`, which holds it first.
 */
export function recordDeprecatedRequest(
  d: Deprecation,
  target: { group: string; version: string; resource: string; subresource: string },
  sinks: { res: ServerResponse; warnings: string[]; audit?: AuditContext; metrics: ApiServerMetrics },
): void {
  sinks.warnings.unshift(d.warning);
  if (!sinks.res.headersSent) sinks.res.setHeader('Warning', warningHeaderValues([d.warning]));
  sinks.audit?.addAnnotation(auditAnnotationKeys.deprecated, 'true');
  if (d.removedRelease) sinks.audit?.addAnnotation(auditAnnotationKeys.removedRelease, d.removedRelease);
  sinks.metrics.requestedDeprecatedApis.set({ ...target, removed_release: d.removedRelease }, 1);
}
