// `kubectl get -o json` of many objects: one JSON v1 List whose items are pairs of an
// ExternalSecret and a Job reading its Secret. Every item is read and edited in the JSON value,
// which is written back in its own layout (docs/format.md, Lists).
import { fill } from './_fill.mjs';

const pair = (i) =>
  JSON.stringify(
    [
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        metadata: { name: `es-${i}`, namespace: 'shop' },
        spec: {
          secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' },
          target: { name: `s-${i}` },
          dataFrom: [{ extract: { key: `app/${i}` } }],
        },
      },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: `job-${i}`, namespace: 'shop' },
        spec: {
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [
                {
                  name: 'job',
                  image: 'job:1',
                  env: [
                    {
                      name: 'TOKEN',
                      valueFrom: { secretKeyRef: { name: `s-${i}`, key: 'token' } },
                    },
                  ],
                },
              ],
            },
          },
        },
      },
    ],
    null,
    2,
  ).slice(1, -1);

export function generate(bytes) {
  return fill(
    bytes,
    '{\n"apiVersion": "v1",\n"kind": "List",\n"items": [',
    (i) => `${i ? ',' : ''}${pair(i)}`,
    ']\n}\n',
  );
}
