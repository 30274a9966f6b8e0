"""The Python client's typed APIs, one call per step. argv: kubeconfig, namespace, CSR PEM file."""
import base64
import sys

from kubernetes import client

from common import api_client, run_steps

api = api_client()
ns = sys.argv[2]
csr_pem = open(sys.argv[3], "rb").read()
core = client.CoreV1Api(api)
certificates = client.CertificatesV1Api(api)
rbac = client.RbacAuthorizationV1Api(api)
coordination = client.CoordinationV1Api(api)
authorization = client.AuthorizationV1Api(api)
csr_name = f"{ns}-py"


def approve():
    csr = certificates.read_certificate_signing_request(csr_name)
    csr.status.conditions = [client.V1CertificateSigningRequestCondition(type="Approved", status="True", reason="E2E", message="approved by python")]
    return [c.type for c in certificates.replace_certificate_signing_request_approval(csr_name, csr).status.conditions]


def replace_lease():
    lease = coordination.read_namespaced_lease("leader", ns)
    lease.spec.holder_identity = "b"
    return coordination.replace_namespaced_lease("leader", ns, lease).spec.holder_identity


run_steps([
    ("CoreV1Api.create_namespace", lambda: core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns))).metadata.name),
    ("CoreV1Api.create_namespaced_service_account", lambda: core.create_namespaced_service_account(ns, client.V1ServiceAccount(metadata=client.V1ObjectMeta(name="bot"))).metadata.name),
    ("CoreV1Api.list_namespaced_service_account", lambda: [s.metadata.name for s in core.list_namespaced_service_account(ns).items]),
    ("CoreV1Api.create_namespaced_config_map", lambda: core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="settings"), data={"a": "1"})).data),
    ("CertificatesV1Api.create_certificate_signing_request", lambda: certificates.create_certificate_signing_request(client.V1CertificateSigningRequest(
        metadata=client.V1ObjectMeta(name=csr_name),
        spec=client.V1CertificateSigningRequestSpec(request=base64.b64encode(csr_pem).decode(), signer_name="kubernetes.io/kube-apiserver-client", usages=["client auth"]),
    )).spec.signer_name),
    ("CertificatesV1Api.replace_certificate_signing_request_approval", approve),
    ("RbacAuthorizationV1Api.create_namespaced_role", lambda: rbac.create_namespaced_role(ns, client.V1Role(
        metadata=client.V1ObjectMeta(name="reader"), rules=[client.V1PolicyRule(api_groups=[""], resources=["configmaps"], verbs=["get"])])).metadata.name),
    ("RbacAuthorizationV1Api.list_cluster_role", lambda: any(r.metadata.name == "cluster-admin" for r in rbac.list_cluster_role().items)),
    ("CoordinationV1Api.create_namespaced_lease", lambda: coordination.create_namespaced_lease(ns, client.V1Lease(
        metadata=client.V1ObjectMeta(name="leader"), spec=client.V1LeaseSpec(holder_identity="a", lease_duration_seconds=15))).spec.holder_identity),
    ("CoordinationV1Api.replace_namespaced_lease", replace_lease),
    ("AuthorizationV1Api.create_self_subject_access_review", lambda: authorization.create_self_subject_access_review(client.V1SelfSubjectAccessReview(
        spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=client.V1ResourceAttributes(verb="create", resource="serviceaccounts", namespace=ns)))).status.allowed),
])
