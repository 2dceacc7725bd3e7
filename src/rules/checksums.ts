// Stage 3: one checksum per pod template over every secret source it consumes, independent of
// item order.

import { annotationEdit, annotationField, type MappingEdit } from '../model/edit.js';
import { canonicalJson, sha256HexOfPieces } from '../model/hash.js';
import type { Json, Resource } from '../model/resource.js';
import { deferredInfo, describe, type Result, resourceResult } from '../model/results.js';
import type { Consumption } from './consumers.js';
import type { SecretSource } from './sources/source.js';
import { addTo } from './stage.js';
import type { KeySet } from './workloads/references.js';
import { barePod, type PodTemplateShape } from './workloads/shapes.js';

/** A source as one pod template reads it: the keys it reads. */
export interface SourceRead {
  source: SecretSource;
  keys: KeySet;
}

export interface Checksum {
  shape: PodTemplateShape;
  annotation: string;
  value: string;
  /** What the value covers. */
  sources: readonly SecretSource[];
  /** The same sources with the keys the template reads of each (`impact` diffs them). */
  consumed: readonly SourceRead[];
}

export interface ChecksumPlan {
  /** The checksums of each consumer's pod templates. */
  checksummed: ReadonlyMap<Resource, readonly Checksum[]>;
  /** Annotations whose value the input does not have yet. */
  edits: readonly MappingEdit[];
  /** Per consumer: its checksums (or why a bare Pod gets none), then its error if any. */
  results: readonly Result[];
}

export function planChecksums({ consumers }: Consumption): ChecksumPlan {
  const checksummed = new Map<Resource, Checksum[]>();
  const edits: MappingEdit[] = [];
  const results: Result[] = [];
  const values: ChecksumValues = new Map();
  for (const { resource, templates, error } of consumers) {
    for (const { template, consumed, current } of templates) {
      if (template.shape === barePod) {
        const names = listNames([...consumed.keys()]);
        const message = `reads ${names}, but a bare Pod is not restarted by an annotation change: no checksum set`;
        results.push(resourceResult(resource, 'info', message));
        continue;
      }
      // One checksum per annotation key (ExternalSecrets, and opt-in sources of their own).
      const byAnnotation = new Map<string, SourceRead[]>();
      for (const [source, keys] of consumed) {
        addTo(byAnnotation, source.annotation, { source, keys });
      }
      const { metadata } = template.shape;
      for (const [annotation, group] of byAnnotation) {
        const value = templateChecksum(group, values);
        const covered = group.map((c) => c.source);
        const checksum = {
          shape: template.shape,
          annotation,
          value,
          sources: covered,
          consumed: group,
        };
        addTo(checksummed, resource, checksum);
        if (current[annotation] !== value) {
          edits.push(annotationEdit(resource.index, metadata, annotation, value));
        }
        results.push(
          deferredInfo(resource, () => ({
            message: `checksum of ${listNames(covered)}`,
            field: { path: annotationField(metadata, annotation), proposedValue: value },
          })),
        );
      }
    }
    // Reading stopped there: what came before it is planned.
    if (error) results.push(error);
  }
  return { checksummed, edits, results };
}

export const listNames = (sources: readonly SecretSource[]) =>
  sources.length === 1
    ? describe((sources[0] as SecretSource).resource)
    : [...new Set(sources.map((s) => describe(s.resource)))].join(', ');

/** The checksums of one run, by the contents and Secret names they cover (`templateChecksum`). */
type ChecksumValues = Map<string, string>;

/**
 * sha256 of the canonical JSON list of `{"secret": <Secret name>, "content": <source content>}`,
 * one entry per consumed source, sorted by their canonical JSON. Consumers that read the same
 * sources with the same keys get one value, hashed once: a source whose content expands (YAML
 * aliases) to megabytes of text is not hashed again for each of its hundreds of consumers.
 */
function templateChecksum(consumed: readonly SourceRead[], values: ChecksumValues): string {
  const read = consumed.map(({ source, keys }) => ({
    content: source.content(keys),
    secret: source.secretName,
  }));
  const covered = read
    .map(({ content, secret }) => JSON.stringify([contentKey(content), secret]))
    .sort()
    .join();
  let value = values.get(covered);
  if (value === undefined) {
    const entries = read
      .map(({ content, secret }) => ({
        content: canonicalOf(content),
        secret: JSON.stringify(secret),
      }))
      .sort(entryOrder);
    // Fed in pieces: the list is never written out, so a large content is not copied per consumer.
    const pieces = entries.flatMap((e, i) => [
      i === 0 ? '[' : ',',
      // Keys in canonical order: "content" < "secret".
      '{"content":',
      e.content,
      ',"secret":',
      e.secret,
      '}',
    ]);
    value = sha256HexOfPieces([...pieces, ']']);
    values.set(covered, value);
  }
  return value;
}

interface Entry {
  /** Canonical JSON of the content and of the Secret name. */
  content: string;
  secret: string;
}

const entryText = (e: Entry) => `{"content":${e.content},"secret":${e.secret}}`;

/** The order of the entries' texts, found without writing a large content's text again. */
function entryOrder(a: Entry, b: Entry): number {
  // Equal contents: the names decide (no JSON string is a proper prefix of another).
  if (a.content === b.content) return order(a.secret, b.secret);
  // One content a prefix of the other (scalars only: `1`, `12`): what follows decides.
  if (a.content.startsWith(b.content) || b.content.startsWith(a.content)) {
    return order(entryText(a), entryText(b));
  }
  return order(a.content, b.content);
}

const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Sources return the same object for all their consumers that read the same keys: serialise it
 * once, and name it by a number (its text can be megabytes) where checksums are looked up.
 */
const canonicalCache = new WeakMap<object, { text: string; id: number }>();
function canonical(content: object & Json): { text: string; id: number } {
  let known = canonicalCache.get(content);
  if (known === undefined) {
    known = { text: canonicalJson(content), id: nextId++ };
    canonicalCache.set(content, known);
  }
  return known;
}
let nextId = 0;

function canonicalOf(content: Json): string {
  return typeof content === 'object' && content !== null
    ? canonical(content).text
    : canonicalJson(content);
}

/** An object's number, or a scalar's canonical JSON (which is never a bare number's text `n1`). */
const contentKey = (content: Json): string =>
  typeof content === 'object' && content !== null
    ? `n${canonical(content).id}`
    : canonicalJson(content);

export function unionKeys(a: KeySet, b: KeySet): KeySet {
  if (a === 'all' || b === 'all') return 'all';
  return new Set([...a, ...b]);
}
