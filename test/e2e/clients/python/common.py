"""Shared by the Python-client scripts the e2e suite runs (Debian's python3-kubernetes):
argv[1] is the kubeconfig; each step's outcome is one JSON line on stdout."""
import json
import signal
import sys

from kubernetes import client, config

# The suite stops long-running scripts with SIGTERM: exit through SystemExit so that atexit runs and
# the client removes the certificate files it wrote to the temp directory (the default handler
# kills the process and leaves them, which the suite's temp-dir check reports).
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


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
