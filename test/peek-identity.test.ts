// peekIdentity (krm/items.ts): an item's apiVersion and kind read by one match where its first
// lines are laid out as kpt prints them, else by peekScalar; both must answer alike.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generate, SHAPES, toResourceList } from '../bench/generate.mjs';
import { peekIdentity } from '../src/krm/items.js';
import { readInput } from '../src/krm/read.js';
import { peekScalar } from '../src/krm/yaml/locate-lines.js';
import type { ItemSpan } from '../src/krm/yaml/spans.js';

const byPeeks = (text: string, span: ItemSpan) => {
  const item = text.slice(span.start, span.end);
  return {
    apiVersion: peekScalar(item, span.entry, [], 'apiVersion'),
    kind: peekScalar(item, span.entry, [], 'kind'),
  };
};

/** The first item of a ResourceList whose items are `items` (text after `items:`). */
const firstItem = (items: string) => {
  const input = readInput(
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}`,
  );
  const span = input.items[0]?.span;
  if (!span) throw new Error('no item span');
  return { text: input.text, span };
};

describe('peekIdentity', () => {
  it('reads what peekScalar reads, on the bench shapes and on first lines laid out otherwise', () => {
    for (const shape of Object.keys(SHAPES)) {
      const input = readInput(toResourceList(generate(300, 1, shape).items));
      for (const { span } of input.items) {
        if (span) expect(peekIdentity(input.text, span)).toEqual(byPeeks(input.text, span));
      }
    }
    const rest = '  metadata:\n    name: a\n';
    const heads = [
      '- apiVersion: apps/v1\n  kind: Deployment\n',
      '- # managed by team a\n  apiVersion: v1\n  kind: Service\n',
      '- #c\n  apiVersion: v1\n  kind: Service\n',
      '-\n  apiVersion: v1\n  kind: Service\n',
      '- apiVersion: v1 # c\n  kind: Service\n',
      '- apiVersion: v1\n  kind: Service # c\n',
      '- apiVersion: \'v1\'\n  kind: "Service"\n',
      '- apiVersion: v1\n  kind: Service\n    continued\n',
      '- apiVersion: v1\n  kind: Service\n\n    continued\n',
      '- apiVersion: v1\n  kind: Service\n  # c\n',
      '- apiVersion: v1\n  kind: Service\n  - x\n',
      '- apiVersion: v1\n  kind:  Service\n',
      '- apiVersion: v1\n  kind: Service \n',
      '- apiVersion: v1\r\n  kind: Service\r\n',
      '- apiVersion: v1\n  kind: 1\n',
      '- apiVersion: 1.0\n  kind: Service\n',
      '- apiVersion: v1\n  kind: Service\n  kind: Other\n',
      '- kind: Service\n  apiVersion: v1\n',
      '- apiVersion: v1\n\n  kind: Service\n',
      '- apiVersion: v1\n   kind: Service\n',
      '- apiVersion: v1\n  kind: Ser-vice\n',
      '- apiVersion: v1\n  kind: Service\n',
      '-  apiVersion: v1\n   kind: Service\n',
    ];
    for (const head of heads) {
      for (const items of [`${head}${rest}`, head, `${head}${rest}- apiVersion: v1\n  kind: B\n`]) {
        const { text, span } = firstItem(items);
        expect(peekIdentity(text, span), JSON.stringify(items)).toEqual(byPeeks(text, span));
      }
    }
  });
});
