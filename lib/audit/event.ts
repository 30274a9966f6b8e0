// audit.svc.io/v1 Event objects and the per-request AuditContext that builds them. The dispatcher
// creates one context per request, fills it as the request proceeds (annotations, request body,
// response) and asks it for an event at each stage. What an event holds follows upstream's
// pkg/audit (context.go, request.go) and the audit filter (pkg/endpoints/filters/audit.go):
//   Metadata         user, verb, URI, objectRef, responseStatus, annotations
//   Request          + requestObject (resource requests only)
//   RequestResponse  + responseObject (resource requests only)
import { randomUUID } from 'node:crypto';
import type { Status } from '../api/meta';
import { deepCopy } from '../machinery/deepCopy';
import type { JsonValue } from '../machinery/jsonValue';
import { getOwn, isJsonObject, setOwn } from '../machinery/jsonValue';
import { evaluatePolicy, PolicyDecision, RequestAttributes } from './checker';
import { withoutManagedFields } from './managedFields';
import { AuditTime, formatMicroTime } from './microTime';
import { auditApiVersion, Level, levelAtLeast, Policy, Stage } from './policy';

export interface AuditUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** Fields in upstream's JSON order; empty ones are left out. */
export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded part of a metav1.Status that an event records; metadata is always {}. */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: Status['details'];
  code?: number;
}

/** One line of the audit log. Optional fields are absent, never undefined-valued, when empty. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: string;
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUserInfo;
  /** Who the request ran as when the user impersonated someone. */
  impersonatedUser?: AuditUserInfo;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  responseStatus?: AuditResponseStatus;
  requestObject?: JsonValue;
  responseObject?: JsonValue;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** What the dispatcher knows about a request when it starts auditing it. */
export interface AuditRequest {
  attributes: RequestAttributes;
  /** Path and query as the client sent them. */
  requestURI: string;
  sourceIPs?: string[];
  userAgent?: string;
  /** The request's Audit-ID header; a new UUID is used when absent or empty. */
  auditID?: string;
  receivedAt: AuditTime;
}

/** A Status-shaped response (an error, or a Status a handler returned). */
export type ResponseStatusInput = Partial<Pick<Status, 'status' | 'message' | 'reason' | 'details' | 'code'>>;

const maxUserAgentBytes = 1024;
const userAgentTruncatedSuffix = '...TRUNCATED';

export class AuditContext {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
  /** Echo it in the response's Audit-Id header, whatever the level. */
  readonly auditID: string;

  private readonly request: AuditRequest;
  private readonly receivedTimestamp: string;
  private readonly objectRef: AuditObjectReference | undefined;
  private readonly annotations = new Map<string, string>();
  private requestObject: JsonValue | undefined;
  private responseObject: JsonValue | undefined;
  private responseStatus: AuditResponseStatus | undefined;
  private impersonatedUser: RequestAttributes['user'] | undefined;

  /** Evaluates the policy (none: nothing is recorded) and starts the request's context. */
  static forRequest(policy: Policy | undefined, request: AuditRequest, newID: () => string = randomUUID): AuditContext {
    return new AuditContext(evaluatePolicy(policy, request.attributes), request, newID);
  }

  constructor(decision: PolicyDecision, request: AuditRequest, newID: () => string = randomUUID) {
    this.level = decision.level;
    this.omitStages = decision.omitStages;
    this.omitManagedFields = decision.omitManagedFields;
    this.auditID = request.auditID ? request.auditID : newID();
    this.request = request;
    // Most requests are not audited; they skip the formatting.
    this.receivedTimestamp = this.enabled ? formatMicroTime(request.receivedAt) : '';
    const a = request.attributes;
    if (a.isResourceRequest) {
      this.objectRef = {
        resource: a.resource,
        namespace: a.namespace,
        name: a.name,
        apiGroup: a.group,
        apiVersion: a.apiVersion,
        subresource: a.subresource,
      };
    }
  }

  /** False at level None: no event is ever emitted and every setter is a no-op. */
  get enabled(): boolean {
    return this.level !== 'None';
  }

  /**
   * Records an annotation (kept from level Metadata up). A key keeps its first value: a
   * different later value is refused (returns false), as upstream does.
   */
  addAnnotation(key: string, value: string): boolean {
    if (!this.enabled) return false;
    const existing = this.annotations.get(key);
    if (existing !== undefined) return existing === value;
    this.annotations.set(key, value);
    return true;
  }

  /** The identity the request runs as after impersonation; the event's user stays the requestor (upstream LogImpersonatedUser). */
  setImpersonatedUser(user: RequestAttributes['user']): void {
    if (!this.enabled) return;
    this.impersonatedUser = user;
  }

  annotation(key: string): string | undefined {
    return this.annotations.get(key);
  }

  /**
   * The decoded request body (any wire format, as a JSON value). Call it at every level: its
   * metadata completes objectRef (namespace, name, uid, resourceVersion) even at Metadata; the
   * body itself is kept from level Request up. Ignored for non-resource requests.
   */
  setRequestObject(body: JsonValue): void {
    if (!this.enabled || !this.objectRef) return;
    const metadata = isJsonObject(body) ? getOwn(body, 'metadata') : undefined;
    if (isJsonObject(metadata)) {
      const ref = this.objectRef;
      for (const key of ['namespace', 'name', 'uid', 'resourceVersion'] as const) {
        const v = getOwn(metadata, key);
        if (!ref[key] && typeof v === 'string') ref[key] = v;
      }
    }
    if (levelAtLeast(this.level, 'Request')) this.requestObject = this.loggable(body);
  }

  /** A patch body (already JSON), recorded as the request object from level Request up, as sent. */
  setRequestPatch(patch: JsonValue): void {
    if (!this.enabled || !this.objectRef || !levelAtLeast(this.level, 'Request')) return;
    this.requestObject = deepCopy(patch);
  }

  /**
   * The response: its HTTP code, the Status when the response is one (errors, delete results),
   * and the body, kept at level RequestResponse for resource requests.
   */
  setResponse(code: number, status?: ResponseStatusInput, body?: JsonValue): void {
    if (!this.enabled) return;
    const rs: AuditResponseStatus = { metadata: {} };
    if (status) {
      if (status.status) rs.status = status.status;
      if (status.message) rs.message = status.message;
      if (status.reason) rs.reason = status.reason;
      if (status.details) rs.details = deepCopy(status.details);
    }
    // The written code wins over the Status's own, as upstream's response writer sets it last.
    if (code) rs.code = code;
    this.responseStatus = rs;
    if (body !== undefined && this.objectRef && this.level === 'RequestResponse') this.responseObject = this.loggable(body);
  }

  /** The handler crashed: the Panic event reports a 500 InternalError with the cause. */
  setPanic(cause: unknown): void {
    if (!this.enabled) return;
    const text = cause instanceof Error ? cause.message : String(cause);
    this.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${text}`, reason: 'InternalError', code: 500 };
  }

  /** Whether event(stage) yields an event (level above None and stage not omitted). */
  emits(stage: Stage): boolean {
    return this.enabled && !this.omitStages.includes(stage);
  }

  /**
   * The event for a stage, or undefined when none is due. A snapshot: later changes to the
   * context do not reach it. RequestReceived is stamped with the receive time; later stages
   * with `now`. A response stage without a response recorded reports upstream's
   * "Connection closed early" success.
   */
  event(stage: Stage, now: AuditTime): AuditEvent | undefined {
    if (!this.emits(stage)) return undefined;
    if (!this.responseStatus && (stage === 'ResponseStarted' || stage === 'ResponseComplete')) {
      this.responseStatus = { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };
    }
    const req = this.request;
    // Built in upstream's field order; the timestamps follow the optional fields.
    const ev = {
      kind: 'Event',
      apiVersion: auditApiVersion,
      level: this.level,
      auditID: this.auditID,
      stage,
      requestURI: req.requestURI,
      verb: req.attributes.verb,
      user: userInfo(req.attributes.user),
    } as AuditEvent;
    if (this.impersonatedUser) ev.impersonatedUser = userInfo(this.impersonatedUser);
    if (req.sourceIPs?.length) ev.sourceIPs = [...req.sourceIPs];
    const ua = truncateUserAgent(req.userAgent ?? '');
    if (ua) ev.userAgent = ua;
    if (this.objectRef) ev.objectRef = withoutEmpty(this.objectRef);
    if (this.responseStatus) ev.responseStatus = { ...this.responseStatus };
    if (this.requestObject !== undefined) ev.requestObject = this.requestObject;
    if (this.responseObject !== undefined) ev.responseObject = this.responseObject;
    ev.requestReceivedTimestamp = this.receivedTimestamp;
    ev.stageTimestamp = stage === 'RequestReceived' ? this.receivedTimestamp : formatMicroTime(now);
    if (this.annotations.size) ev.annotations = sortedRecord(this.annotations);
    return ev;
  }

  private loggable(body: JsonValue): JsonValue {
    return this.omitManagedFields ? withoutManagedFields(body) : deepCopy(body);
  }
}

function userInfo(u: RequestAttributes['user']): AuditUserInfo {
  const out: AuditUserInfo = {};
  if (u.name) out.username = u.name;
  if (u.uid) out.uid = u.uid;
  if (u.groups.length) out.groups = [...u.groups];
  const extraKeys = Object.keys(u.extra ?? {});
  if (extraKeys.length) {
    // Go writes map keys sorted; the log should not depend on insertion order.
    out.extra = sortedRecord(new Map(extraKeys.map((k) => [k, [...u.extra![k]]])));
  }
  return out;
}

/** Upstream cuts a User-Agent above 1024 bytes and marks it. */
function truncateUserAgent(ua: string): string {
  const bytes = Buffer.from(ua, 'utf8');
  if (bytes.length <= maxUserAgentBytes) return ua;
  return bytes.subarray(0, maxUserAgentBytes).toString('utf8') + userAgentTruncatedSuffix;
}

function withoutEmpty(ref: AuditObjectReference): AuditObjectReference {
  // Rebuilt in the declared order so namespace/name filled in later keep their place.
  const order = ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const;
  const out: AuditObjectReference = {};
  for (const k of order) if (ref[k]) out[k] = ref[k];
  return out;
}

function sortedRecord<V>(m: ReadonlyMap<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const k of [...m.keys()].sort()) setOwn(out, k, m.get(k));
  return out;
}
