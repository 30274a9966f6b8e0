// client-node's generic KubernetesObjectApi against a custom resource (the CRD
// widgets.example.com must be Established): create, read, merge patch, list, delete.
// argv: kubeconfig, namespace.
import * as k8s from '@kubernetes/client-node';
import { kubeConfig, runSteps } from './common.mts';

const kc = kubeConfig();
const [namespace] = process.argv.slice(3);
const api = k8s.KubernetesObjectApi.makeApiClient(kc);
type Widget = k8s.KubernetesObject & { spec?: { size?: number; color?: string } };
const widget: Widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'node', namespace }, spec: { size: 3 } };

await runSteps([
  ['create', async () => ((await api.create(widget)) as Widget).spec?.color],
  ['read', async () => ((await api.read({ apiVersion: widget.apiVersion, kind: widget.kind, metadata: { name: 'node', namespace } })) as Widget).spec?.size],
  ['patch (merge)', async () => {
    const r = await api.patch({ ...widget, spec: { size: 5 } }, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
    return (r as Widget).metadata?.generation;
  }],
  ['list', async () => (await api.list(widget.apiVersion!, widget.kind!, namespace)).items.map((i) => i.metadata?.name)],
  ['delete', async () => {
    await api.delete({ apiVersion: widget.apiVersion, kind: widget.kind, metadata: { name: 'node', namespace } });
    return true;
  }],
]);
