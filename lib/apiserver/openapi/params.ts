// The query and path parameters the API documents, with upstream's descriptions.

export type ParamName =
  | 'name'
  | 'namespace'
  | 'pretty'
  | 'allowWatchBookmarks'
  | 'continue'
  | 'fieldSelector'
  | 'labelSelector'
  | 'limit'
  | 'resourceVersion'
  | 'resourceVersionMatch'
  | 'sendInitialEvents'
  | 'timeoutSeconds'
  | 'watch'
  | 'dryRun'
  | 'fieldManager'
  | 'fieldValidation'
  | 'force'
  | 'gracePeriodSeconds'
  | 'ignoreStoreReadErrorWithClusterBreakingPotential'
  | 'orphanDependents'
  | 'propagationPolicy';

export interface ParamSpec {
  name: ParamName;
  in: 'path' | 'query';
  type: 'string' | 'integer' | 'boolean';
  description: string;
}

const q = (name: ParamName, type: ParamSpec['type'], description: string): ParamSpec => ({ name, in: 'query', type, description });

export const params: Record<ParamName, ParamSpec> = {
  name: { name: 'name', in: 'path', type: 'string', description: 'name of the object' },
  namespace: { name: 'namespace', in: 'path', type: 'string', description: 'object name and auth scope, such as for teams and projects' },
  pretty: q('pretty', 'string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget)."),
  allowWatchBookmarks: q(
    'allowWatchBookmarks',
    'boolean',
    'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
  ),
  continue: q(
    'continue',
    'string',
    'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token.',
  ),
  fieldSelector: q('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  labelSelector: q('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  limit: q(
    'limit',
    'integer',
    'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.',
  ),
  resourceVersion: q('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from.\n\nDefaults to unset'),
  resourceVersionMatch: q('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls.\n\nDefaults to unset'),
  sendInitialEvents: q(
    'sendInitialEvents',
    'boolean',
    '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent.',
  ),
  timeoutSeconds: q('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  watch: q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
  dryRun: q(
    'dryRun',
    'string',
    'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  ),
  fieldManager: q(
    'fieldManager',
    'string',
    'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.',
  ),
  fieldValidation: q(
    'fieldValidation',
    'string',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
  ),
  force: q(
    'force',
    'boolean',
    'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  ),
  gracePeriodSeconds: q(
    'gracePeriodSeconds',
    'integer',
    'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
  ),
  ignoreStoreReadErrorWithClusterBreakingPotential: q(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    "if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it",
  ),
  orphanDependents: q(
    'orphanDependents',
    'boolean',
    'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
  ),
  propagationPolicy: q(
    'propagationPolicy',
    'string',
    "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
  ),
};

/** Query parameters by operation (spec §4.3), pretty included where upstream has it. */
export const queryParamsFor = {
  read: ['pretty'],
  list: ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'pretty', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'],
  create: ['dryRun', 'fieldManager', 'fieldValidation', 'pretty'],
  replace: ['dryRun', 'fieldManager', 'fieldValidation', 'pretty'],
  patch: ['dryRun', 'fieldManager', 'fieldValidation', 'force', 'pretty'],
  delete: ['dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'pretty', 'propagationPolicy'],
  deletecollection: [
    'continue',
    'dryRun',
    'fieldSelector',
    'gracePeriodSeconds',
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'labelSelector',
    'limit',
    'orphanDependents',
    'pretty',
    'propagationPolicy',
    'resourceVersion',
    'resourceVersionMatch',
    'sendInitialEvents',
    'timeoutSeconds',
  ],
} as const satisfies Record<string, readonly ParamName[]>;
