// 1Password OnePasswordItem: the Secret is named like the item, in its namespace; itemPath and
// the top-level type decide its content.
import { describe, expect, it } from 'vitest';
import { moved, secretReaders, shopReaders, sourceTests } from './harness.js';

const item = (opts: { type?: string; meta?: string; path?: string } = {}) =>
  `apiVersion: onepassword.com/v1
kind: OnePasswordItem
metadata:
  name: db
  namespace: shop
${opts.meta ?? ''}${opts.type ?? ''}spec:
  itemPath: ${opts.path ?? 'vaults/shop-prod/items/database'}
`;

const world = (text = item()) => [text, ...secretReaders('db')];
const both = shopReaders;
const t = sourceTests({ kind: 'OnePasswordItem', name: 'db', text: item(), world });

describe('OnePasswordItem', () => {
  t.itChecksums(
    'checksums the consumers of the Secret named like the item and gets a wave below them',
    { consumers: both, same: ['shop/one-key', 'shop/all-keys'] },
  );

  it('moves on itemPath and on the top-level type, not on Opaque written out or metadata', () => {
    expect(moved(world(), world(item({ path: 'vaults/shop-prod/items/database-v2' })))).toEqual(
      both,
    );
    expect(moved(world(), world(item({ type: 'type: kubernetes.io/basic-auth\n' })))).toEqual(both);
    const same = item({
      type: 'type: Opaque\n',
      meta: '  labels: {a: b}\n  annotations: {operator.1password.io/auto-restart: "false"}\n',
    });
    expect(moved(world(), world(same))).toEqual([]);
  });

  t.itReportsMalformed([
    [item({ path: '""' }), 'spec.itemPath', 'is missing'],
    [
      item({ path: 'shop-prod/database' }),
      'spec.itemPath',
      'not of the form vaults/{vault}/items/{item}',
    ],
    [item({ type: 'type: [a]\n' }), 'type', 'is not a string'],
  ]);
});
