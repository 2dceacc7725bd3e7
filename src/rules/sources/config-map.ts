// Plain ConfigMaps (v1), opt-in with `configMapChecksumAnnotation`: the Helm `checksum/config`
// habit, per key. Not ordered: Argo CD applies ConfigMaps before workloads of the same wave.
import type { Json } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import type { KeySet } from '../workloads/references.js';
import { pickKeys, stringMap } from './fields.js';
import { inInput } from './in-input.js';
import { normalize } from './normalize.js';
import type { SourceKind } from './source.js';

export const configMap: SourceKind = {
  group: '',
  kind: 'ConfigMap',
  read(resource, { config }) {
    if (config.configMapChecksumAnnotation === '') return [];
    const data = stringMap(resource.value.data, 'data');
    const binaryData = stringMap(resource.value.binaryData, 'binaryData');
    if (resource.name === '') throw new ItemError('has no metadata.name', 'metadata.name');
    return inInput(resource, 'ConfigMap', config.configMapChecksumAnnotation, {
      producedKeys: () => new Set([...Object.keys(data), ...Object.keys(binaryData)]),
      // The whole content is here, so narrowing to the keys read is always sound.
      content: (keys: KeySet): Json =>
        normalize({ data: pickKeys(data, keys), binaryData: pickKeys(binaryData, keys) }, []),
    });
  },
};
