"""Shared by the Python-client scripts the e2e suite runs (Debian's python3-kubernetes):
argv[1] is the kubeconfig; each step's outcome is one JSON line on stdout."""
import json
import sys

from kubernetes import client, config


def api_client():
    return config.new_client_from_config(config_file=sys.argv[1])


def describe(e):
    if isinstance(e, client.exceptions.ApiException):
        message = e.body
        try:
            message = json.loads(e.body).get("message", e.body)
        except (TypeError, ValueError):
            pass
        return f"{e.status} {message}"[:400]
    return f"? {e}"[:400]


def run_steps(steps):
    """Runs each (name, fn) in order; a failed step does not stop the later ones."""
    for name, fn in steps:
        try:
            line = {"step": name, "ok": True, "value": fn()}
        except Exception as e:  # every failure is a result to report
            line = {"step": name, "ok": False, "error": describe(e)}
        print(json.dumps(line, default=str), flush=True)
