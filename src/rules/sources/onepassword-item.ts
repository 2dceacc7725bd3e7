// 1Password Connect operator OnePasswordItem (onepassword.com/v1): syncs one 1Password item into a
// Secret named like the OnePasswordItem, in its namespace (internal/controller/
// onepassworditem_controller.go).
import type { Json } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import { objectField, optionalString, requiredString } from './fields.js';
import { operatorSecret } from './operator-secret.js';
import type { SourceKind } from './source.js';

/**
 * Content: `spec.itemPath` and the top-level `type` (the Secret's type; the operator treats ""
 * as Opaque). Not content: the OnePasswordItem's labels and annotations, which the operator
 * copies onto the Secret (pods cannot read them).
 */
export const onePasswordItem: SourceKind = {
  group: 'onepassword.com',
  kind: 'OnePasswordItem',
  read(resource, { config }) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const itemPath = requiredString(spec.itemPath, 'spec.itemPath');
    // pkg/onepassword/items.go ParseVaultAndItemFromPath refuses any other shape.
    const parts = itemPath.split('/');
    if (parts.length !== 4 || parts[0] !== 'vaults' || parts[2] !== 'items') {
      throw new ItemError(
        'spec.itemPath is not of the form vaults/{vault}/items/{item}',
        'spec.itemPath',
      );
    }
    const type = optionalString(resource.value.type, 'type') ?? '';
    const content: Json = type === '' || type === 'Opaque' ? { itemPath } : { itemPath, type };
    return operatorSecret(resource, config, {
      secretName: resource.name,
      // The item's fields decide the keys: never narrowed.
      content: () => content,
    });
  },
};
