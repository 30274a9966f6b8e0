// A client-node informer on ConfigMaps, restarted on error as client-node's documentation shows.
// Each list call (the informer's listFn) and each event is one JSON line, so the suite sees
// whether a server restart made it list again. argv: kubeconfig, namespace.
import * as k8s from '@kubernetes/client-node';
import { describeError, kubeConfig } from './common.mts';

const kc = kubeConfig();
const namespace = process.argv[3];
const core = kc.makeApiClient(k8s.CoreV1Api);
const print = (line: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

let lists = 0;
const listFn = async (): Promise<k8s.V1ConfigMapList> => {
  lists++;
  const list = await core.listNamespacedConfigMap({ namespace });
  print({ event: 'list', lists, resourceVersion: list.metadata?.resourceVersion });
  return list;
};
const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, listFn);
informer.on('add', (cm) => print({ event: 'add', name: cm.metadata?.name, resourceVersion: cm.metadata?.resourceVersion }));
informer.on('update', (cm) => print({ event: 'update', name: cm.metadata?.name }));
informer.on('delete', (cm) => print({ event: 'delete', name: cm.metadata?.name }));
informer.on('error', (err) => {
  print({ event: 'error', error: describeError(err) });
  setTimeout(() => void informer.start().catch(() => undefined), 200);
});
informer.on('connect', () => print({ event: 'connect' }));
process.on('SIGTERM', () => {
  void informer.stop().then(() => process.exit(0));
});
await informer.start();
print({ event: 'started' });
