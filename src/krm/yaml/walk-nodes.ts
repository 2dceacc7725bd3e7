// The nodes of a document the conforming reader parsed, in the order the `yaml` library's `visit`
// takes them (pre-order; a pair, then its key, then its value), without the path `visit` hands
// each callback: it copies that path at every node, the square of the nesting per item in
// garbage (bench/adversarial values-annotations: 425 MB allocated for 256 KB of input).
import type { Alias, Document, Pair, YAMLMap } from 'yaml';
import loadYaml from './load-yaml.cjs';

/** What a callback answers: `stop` ends the walk, `skip` leaves out what the node holds. */
export const stop = Symbol('stop');
export const skip = Symbol('skip');
type Answer = typeof stop | typeof skip | undefined;

export interface NodeVisitor {
  Map?(map: YAMLMap): Answer;
  Pair?(pair: Pair): Answer;
  Alias?(alias: Alias): Answer;
}

export function walkNodes(doc: Document, visitor: NodeVisitor): void {
  const { isAlias, isMap, isPair, isSeq } = loadYaml();
  // A stack, not recursion: the library nests as deep as the text does.
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node) || isSeq(node)) {
      const answer = isMap(node) ? visitor.Map?.(node) : undefined;
      if (answer === stop) return;
      if (answer === skip) continue;
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    } else if (isPair(node)) {
      const answer = visitor.Pair?.(node);
      if (answer === stop) return;
      if (answer === skip) continue;
      stack.push(node.value, node.key);
    } else if (isAlias(node) && visitor.Alias?.(node) === stop) return;
  }
}
