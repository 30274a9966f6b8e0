"""A Python-client watch resumed from a resourceVersion: lists ConfigMaps, takes the list's
resourceVersion, lets the suite create objects (it waits for a line on stdin), then watches from
that resourceVersion and must see exactly the later creations. argv: kubeconfig, namespace, count."""
import json
import sys

from kubernetes import client, watch

from common import api_client

core = client.CoreV1Api(api_client())
ns, want = sys.argv[2], int(sys.argv[3])
listed = core.list_namespaced_config_map(ns)
rv = listed.metadata.resource_version
print(json.dumps({"event": "listed", "resourceVersion": rv, "names": [c.metadata.name for c in listed.items]}), flush=True)
sys.stdin.readline()  # the suite created its objects after the list
seen = []
for ev in watch.Watch().stream(core.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=30):
    seen.append([ev["type"], ev["object"].metadata.name])
    if len(seen) >= want:
        break
print(json.dumps({"event": "watched", "events": seen}), flush=True)
