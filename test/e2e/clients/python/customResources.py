"""The Python client's DynamicClient against a custom resource (the CRD widgets.example.com must be
Established): discovery finds it, then create, get, merge patch, /status, list, delete.
argv: kubeconfig, namespace."""
import os
import sys

from kubernetes.dynamic import DynamicClient

from common import api_client, run_steps

cache_file = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "dynamic-discovery-cache-cr.json")
dyn = DynamicClient(api_client(), cache_file=cache_file)
ns = sys.argv[2]
widgets = dyn.resources.get(api_version="example.com/v1", kind="Widget")
body = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "py"}, "spec": {"size": 2}}

run_steps([
    ("create", lambda: widgets.create(namespace=ns, body=body).spec.color),
    ("get", lambda: widgets.get(namespace=ns, name="py").spec.size),
    ("patch", lambda: widgets.patch(namespace=ns, name="py", body={"spec": {"size": 4}}, content_type="application/merge-patch+json").metadata.generation),
    ("status", lambda: widgets.status.patch(namespace=ns, name="py", body={"status": {"ready": True}}, content_type="application/merge-patch+json").status.ready),
    ("list", lambda: [w.metadata.name for w in widgets.get(namespace=ns).items]),
    ("delete", lambda: widgets.delete(namespace=ns, name="py").status),
])
