"""The Python client's DynamicClient, which finds resources through discovery (so it works with
either naming profile). argv: kubeconfig, namespace, group domain (svc.io or k8s.io)."""
import os
import sys

from kubernetes.dynamic import DynamicClient

from common import api_client, run_steps

# Discovery is cached beside the kubeconfig, in the test's own directory: by default the client
# keeps it in the temp directory (osrcp-<md5 of the URL>.json) for good.
cache_file = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "dynamic-discovery-cache.json")
dyn = DynamicClient(api_client(), cache_file=cache_file)
ns, domain = sys.argv[2], sys.argv[3]
namespaces = dyn.resources.get(api_version="v1", kind="Namespace")
configmaps = dyn.resources.get(api_version="v1", kind="ConfigMap")
leases = dyn.resources.get(api_version=f"coordination.{domain}/v1", kind="Lease")
roles = dyn.resources.get(api_version=f"rbac.authorization.{domain}/v1", kind="Role")

run_steps([
    ("create Namespace", lambda: namespaces.create(body={"metadata": {"name": ns}}).metadata.name),
    ("create ConfigMap", lambda: configmaps.create(namespace=ns, body={"metadata": {"name": "cm"}, "data": {"k": "v"}}).data.k),
    ("create Lease", lambda: leases.create(namespace=ns, body={"apiVersion": f"coordination.{domain}/v1", "kind": "Lease", "metadata": {"name": "l"}, "spec": {"holderIdentity": "x"}}).spec.holderIdentity),
    ("patch Lease", lambda: leases.patch(namespace=ns, name="l", body={"spec": {"holderIdentity": "y"}}, content_type="application/merge-patch+json").spec.holderIdentity),
    ("create Role", lambda: roles.create(namespace=ns, body={"apiVersion": f"rbac.authorization.{domain}/v1", "kind": "Role", "metadata": {"name": "r"}, "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"]}]}).metadata.name),
    ("list Role", lambda: [r.metadata.name for r in roles.get(namespace=ns).items]),
    ("delete Lease", lambda: leases.delete(namespace=ns, name="l").kind),
])
