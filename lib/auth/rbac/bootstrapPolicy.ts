// The default ClusterRoles and ClusterRoleBindings the server ensures at start (upstream
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go and controller_policy.go), limited
// to what this server serves and spelled with the product's names.
import { apiserverComponent, controllerManagerUserName, groups, nodeAgentName, rbacPolicyKeys, signerNames } from '../../api/product';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Subject } from '../../api/rbac';
import { deepCopy } from '../../machinery/deepCopy';
import { groupNames } from '../user';

const apiVersion = `${groups.rbac}/v1`;
const core = '';

const read = ['get', 'list', 'watch'];
const write = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const readWrite = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** Group of the monitoring identities (upstream user.MonitoringGroup). */
export const monitoringGroup = 'system:monitoring';

/** Names of roles that other code refers to. */
export const bootstrapRoleNames = {
  clusterAdmin: 'cluster-admin',
  discovery: 'system:discovery',
  monitoring: 'system:monitoring',
  basicUser: 'system:basic-user',
  publicInfoViewer: 'system:public-info-viewer',
  admin: 'admin',
  edit: 'edit',
  view: 'view',
  aggregateToAdmin: 'system:aggregate-to-admin',
  aggregateToEdit: 'system:aggregate-to-edit',
  aggregateToView: 'system:aggregate-to-view',
  nodeBootstrapper: 'system:node-bootstrapper',
  authDelegator: 'system:auth-delegator',
  controllerManager: controllerManagerUserName,
  nodeClient: `system:${groups.certificates}:certificatesigningrequests:nodeclient`,
  selfNodeClient: `system:${groups.certificates}:certificatesigningrequests:selfnodeclient`,
  legacyUnknownApprover: `system:${groups.certificates}:legacy-unknown-approver`,
  svcletServingApprover: `system:${groups.certificates}:${nodeAgentName}-serving-approver`,
  apiserverClientApprover: `system:${groups.certificates}:${apiserverComponent}-client-approver`,
  apiserverClientSvcletApprover: `system:${groups.certificates}:${apiserverComponent}-client-${nodeAgentName}-approver`,
} as const;

function rule(verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule {
  const r: PolicyRule = { verbs, apiGroups, resources };
  if (resourceNames) r.resourceNames = resourceNames;
  return r;
}

function urls(verbs: string[], nonResourceURLs: string[]): PolicyRule {
  return { verbs, nonResourceURLs };
}

function clusterRole(name: string, rules: PolicyRule[] | undefined, extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): ClusterRole {
  const role: ClusterRole = {
    apiVersion,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { ...extra.labels, [rbacPolicyKeys.bootstrappingLabel]: 'rbac-defaults' },
      annotations: { [rbacPolicyKeys.autoupdateAnnotation]: 'true' },
    },
  };
  // Aggregated roles carry no rules of their own; the aggregation fills them in.
  if (rules) role.rules = rules;
  if (extra.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] };
  return role;
}

const group = (name: string): Subject => ({ kind: 'Group', apiGroup: groups.rbac, name });
const user = (name: string): Subject => ({ kind: 'User', apiGroup: groups.rbac, name });

function clusterRoleBinding(roleName: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion,
    kind: 'ClusterRoleBinding',
    metadata: {
      name: roleName,
      labels: { [rbacPolicyKeys.bootstrappingLabel]: 'rbac-defaults' },
      annotations: { [rbacPolicyKeys.autoupdateAnnotation]: 'true' },
    },
    roleRef: { apiGroup: groups.rbac, kind: 'ClusterRole', name: roleName },
    subjects,
  };
}

const n = bootstrapRoleNames;
const healthAndVersion = ['/livez', '/readyz', '/healthz', '/version', '/version/'];

const clusterRoles: readonly ClusterRole[] = [
  // a "root" role which can do absolutely anything
  clusterRole(n.clusterAdmin, [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  // enough to find out whether the server is ready and to discover API versions
  clusterRole(n.discovery, [urls(['get'], [...healthAndVersion, '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])]),
  // metrics and the individual health checks
  clusterRole(n.monitoring, [
    urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*']),
  ]),
  // lets a user learn about themselves
  clusterRole(n.basicUser, [
    rule(['create'], [groups.authorization], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
    rule(['create'], [groups.authentication], ['selfsubjectreviews']),
  ]),
  // insensitive cluster information, for everyone
  clusterRole(n.publicInfoViewer, [urls(['get'], healthAndVersion)]),
  clusterRole(n.admin, undefined, { aggregateFrom: rbacPolicyKeys.aggregateToAdmin }),
  clusterRole(n.edit, undefined, { labels: { [rbacPolicyKeys.aggregateToAdmin]: 'true' }, aggregateFrom: rbacPolicyKeys.aggregateToEdit }),
  clusterRole(n.view, undefined, { labels: { [rbacPolicyKeys.aggregateToEdit]: 'true' }, aggregateFrom: rbacPolicyKeys.aggregateToView }),
  clusterRole(
    n.aggregateToAdmin,
    [rule(['create'], [groups.authorization], ['localsubjectaccessreviews']), rule(readWrite, [groups.rbac], ['roles', 'rolebindings'])],
    { labels: { [rbacPolicyKeys.aggregateToAdmin]: 'true' } },
  ),
  clusterRole(
    n.aggregateToEdit,
    [
      rule(['impersonate'], [core], ['serviceaccounts']),
      rule(write, [core], ['serviceaccounts', 'configmaps']),
      rule(['create'], [core], ['serviceaccounts/token']),
      rule(readWrite, [groups.coordination], ['leases']),
    ],
    { labels: { [rbacPolicyKeys.aggregateToEdit]: 'true' } },
  ),
  clusterRole(
    n.aggregateToView,
    [
      rule(read, [core], ['serviceaccounts', 'configmaps']),
      rule(read, [core], ['namespaces/status']),
      // reading namespaces at namespace scope means reading *this* namespace
      rule(read, [core], ['namespaces']),
    ],
    { labels: { [rbacPolicyKeys.aggregateToView]: 'true' } },
  ),
  // a node's first client certificate: create a CSR and wait for it
  clusterRole(n.nodeBootstrapper, [rule(['create', 'get', 'list', 'watch'], [groups.certificates], ['certificatesigningrequests'])]),
  // delegated authentication and authorization
  clusterRole(n.authDelegator, [
    rule(['create'], [groups.authentication], ['tokenreviews']),
    rule(['create'], [groups.authorization], ['subjectaccessreviews']),
  ]),
  // everything the controllers of svc-controller-manager do under its one identity (upstream
  // splits this into system:kube-controller-manager and per-controller roles)
  clusterRole(n.controllerManager, [
    // leader election
    rule(['get', 'create', 'update'], [groups.coordination], ['leases']),
    // csrapproving, csrsigning, csrcleaner
    rule(['get', 'list', 'watch', 'delete'], [groups.certificates], ['certificatesigningrequests']),
    rule(['update'], [groups.certificates], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
    rule(['approve'], [groups.certificates], ['signers'], [signerNames.apiserverClientSvclet]),
    rule(['sign'], [groups.certificates], ['signers'], [signerNames.legacyUnknown, signerNames.apiserverClient, signerNames.apiserverClientSvclet, signerNames.svcletServing]),
    rule(['create'], [groups.authorization], ['subjectaccessreviews']),
    rule(['create'], [groups.authentication], ['tokenreviews']),
    // serviceaccount controller
    rule(['get', 'list', 'watch', 'create'], [core], ['serviceaccounts']),
    // namespace controller
    rule(['get', 'list', 'watch', 'delete'], [core], ['namespaces']),
    rule(['update'], [core], ['namespaces/finalize', 'namespaces/status']),
    rule(['get', 'list', 'delete', 'deletecollection'], ['*'], ['*']),
    // shared informers
    rule(['list', 'watch'], ['*'], ['*']),
  ]),
  // the auto-approver's SubjectAccessReviews ask for these (certificates.md §4)
  clusterRole(n.nodeClient, [rule(['create'], [groups.certificates], ['certificatesigningrequests/nodeclient'])]),
  clusterRole(n.selfNodeClient, [rule(['create'], [groups.certificates], ['certificatesigningrequests/selfnodeclient'])]),
  // who may approve CSRs of each signer (certificates.md §2); bound by the installer, not by default
  clusterRole(n.legacyUnknownApprover, [rule(['approve'], [groups.certificates], ['signers'], [signerNames.legacyUnknown])]),
  clusterRole(n.svcletServingApprover, [rule(['approve'], [groups.certificates], ['signers'], [signerNames.svcletServing])]),
  clusterRole(n.apiserverClientApprover, [rule(['approve'], [groups.certificates], ['signers'], [signerNames.apiserverClient])]),
  clusterRole(n.apiserverClientSvcletApprover, [rule(['approve'], [groups.certificates], ['signers'], [signerNames.apiserverClientSvclet])]),
];

const clusterRoleBindings: readonly ClusterRoleBinding[] = [
  clusterRoleBinding(n.clusterAdmin, [group(groupNames.masters)]),
  clusterRoleBinding(n.monitoring, [group(monitoringGroup)]),
  clusterRoleBinding(n.discovery, [group(groupNames.authenticated)]),
  clusterRoleBinding(n.basicUser, [group(groupNames.authenticated)]),
  clusterRoleBinding(n.publicInfoViewer, [group(groupNames.authenticated), group(groupNames.unauthenticated)]),
  clusterRoleBinding(n.controllerManager, [user(controllerManagerUserName)]),
];

/** Fresh copies of the default ClusterRoles, in upstream's order. */
export function bootstrapClusterRoles(): ClusterRole[] {
  return deepCopy([...clusterRoles]);
}

/** Fresh copies of the default ClusterRoleBindings, in upstream's order. */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return deepCopy([...clusterRoleBindings]);
}
