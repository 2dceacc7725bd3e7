// Bitnami SealedSecret: the Secret carries the SealedSecret's name and namespace; ciphertexts and
// the template's type and data decide its content.
import { describe, expect, it } from 'vitest';
import { annotated, messagesAbout, moved, reader, render, sourceTests } from './harness.js';

const sealed = (opts: { template?: string; meta?: string; password?: string } = {}) =>
  `apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: db
  namespace: shop
${opts.meta ?? ''}spec:
  encryptedData:
    password: ${opts.password ?? 'AgBy3i4OJSWK+PiTySYZZA=='}
    user: AgCtr8OJSWK+PiTyaaaBBB==
${opts.template ?? '  template:\n    metadata:\n      name: db\n      namespace: shop\n'}`;

const world = (text = sealed()) => [
  text,
  reader('shop/all-keys', 'db'),
  reader('shop/user-only', 'db', 'user', '-3'),
  reader('other/elsewhere', 'db'),
];
const both = ['shop/all-keys', 'shop/user-only'];
const newPassword = 'AgDifferentCiphertext==';
const t = sourceTests({ kind: 'SealedSecret', name: 'db', text: sealed(), world });

describe('SealedSecret', () => {
  t.itChecksums('checksums its consumers and gets a wave below them', {
    consumers: both,
    wave: '-4',
    more: (rendered) =>
      expect(messagesAbout(rendered, 'SealedSecret', 'db')).toEqual([
        'sync-wave -4, before Deployment shop/all-keys, Deployment shop/user-only',
      ]),
  });

  it('moves on a new ciphertext, only for templates that read that key', () => {
    expect(moved(world(), world(sealed({ password: newPassword })))).toEqual(['shop/all-keys']);
  });

  it.each([
    ['type', '  template:\n    type: kubernetes.io/basic-auth\n'],
    ['data', '  template:\n    data:\n      url: "postgres://{{ .user }}@db"\n'],
    ['data deleting a key', '  template:\n    data:\n      password: null\n'],
  ])('moves every consumer on the template %s', (_, template) => {
    expect(moved(world(), world(sealed({ template })))).toEqual(both);
  });

  it('counts every ciphertext for every consumer when the template has data', () => {
    const template = '  template:\n    data:\n      url: "postgres://{{ .user }}@db"\n';
    const after = sealed({ template, password: newPassword });
    expect(moved(world(sealed({ template })), world(after))).toEqual(both);
  });

  t.itMovesNone(
    'does not move on labels, annotations, template metadata, immutable or type Opaque',
    sealed({
      meta: '  labels: {a: b}\n  annotations: {sealedsecrets.bitnami.com/managed: "true"}\n',
      template:
        '  template:\n    type: Opaque\n    immutable: true\n    metadata:\n      labels: {app: db}\n      annotations: {note: n}\n',
    }),
  );

  it('warns that a template name or namespace is ignored: the Secret keeps the SealedSecret name', () => {
    const text = sealed({
      template: '  template:\n    metadata: {name: renamed, namespace: prod}\n',
    });
    const rendered = render(world(text));
    const warnings = rendered.results.filter(
      (r) =>
        r.severity === 'warning' && (r.resourceRef as { kind: string }).kind === 'SealedSecret',
    );
    expect(warnings.map((w) => (w.field as { path: string }).path)).toEqual([
      'spec.template.metadata.name',
      'spec.template.metadata.namespace',
    ]);
    expect(warnings[0]?.message).toContain('spec.template.metadata.name renamed is ignored');
    expect(annotated(world(text))).toEqual(both);
  });

  t.itReportsMalformed(
    [
      [sealed({ password: '[1, 2]' }), 'spec.encryptedData[password]', 'is not a string'],
      [sealed({ template: '  template: [x]\n' }), 'spec.template', 'is a list, not a mapping'],
      [
        sealed({ template: '  template:\n    data: {a: 1}\n' }),
        'spec.template.data[a]',
        'is not a string',
      ],
      [sealed({ template: '  template:\n    type: 3\n' }), 'spec.template.type', 'is not a string'],
    ],
    (results) => expect(results).not.toContain('AgCtr8'),
  );
});
