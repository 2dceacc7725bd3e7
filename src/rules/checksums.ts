// Stage 3: one checksum per pod template over every secret source it consumes, independent of
// item order.

import type { Edit } from '../model/edit.js';
import { type ListsBy, mapUnder } from '../model/fold.js';
import {
  canonicalJson,
  canonicalSize,
  sha256HexOfPieces,
  sortShort,
  sortValues,
  textOrder,
} from '../model/hash.js';
import { ItemTable } from '../model/item-table.js';
import type { Json } from '../model/json.js';
import { fieldPath, getPath, type Keys } from '../model/path.js';
import type { Resource } from '../model/resource.js';
import {
  bareTemplate,
  checksum as checksumRule,
  checksumBudget as overBudgetRule,
} from '../model/result-rules.js';
import { deferredInfo, plainResult, type Result, resourceResult } from '../model/results.js';
import type { Consumed, ConsumingTemplate, Consumption, UnreadConsumer } from './consumers.js';
import type { SecretSource } from './sources/source.js';
import { listNames } from './stage.js';
import {
  patchedKinds,
  patchText,
  patchTrail,
  postRendererEntry,
} from './workloads/helm-release.js';
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
  /**
   * Where a reader finds the value, as results, plan and impact name it: the annotation on the
   * pod template, or the first patch of a HelmRelease's post-renderer entry (every patch of it
   * carries the same annotations).
   */
  field: string;
  /** What the value covers. */
  sources: readonly SecretSource[];
  /** The same sources with the keys the template reads of each (`impact` diffs them). */
  consumed: readonly SourceRead[];
}

/**
 * A checksum keeps the template's reads (rows of the run's columns), not a record per source:
 * `consumed` is built when `impact` asks (150k records, 13.8 MB on the fan-in bench, were kept to
 * the end). It is its info result's details too (`deferredInfo`), not a closure per checksum.
 */
class TemplateChecksum implements Checksum {
  constructor(
    readonly shape: PodTemplateShape,
    readonly annotation: string,
    readonly value: string,
    readonly field: string,
    private readonly covered: Consumed,
    /** Set in each patch of a HelmRelease's post-renderer entry. */
    private readonly patched: boolean,
  ) {}

  /** The info result's message and field. */
  details(): { message: string; field: { path: string; proposedValue: string } } {
    const where = this.patched ? ', in each patch of the post-renderer entry' : '';
    return {
      message: `checksum of ${listNames(this.covered.sources)}${where}`,
      field: { path: this.field, proposedValue: this.value },
    };
  }

  get sources(): readonly SecretSource[] {
    return this.covered.sources;
  }

  get consumed(): SourceRead[] {
    const { covered } = this;
    return covered.sources.map((source, i) => ({ source, keys: covered.keys(i) }));
  }
}

export interface ChecksumPlan {
  /** The checksums of each consumer's pod templates. */
  checksummed: ListsBy<Resource, Checksum>;
  /** Annotations whose value the input does not have yet; a HelmRelease's post-renderer entry. */
  edits: readonly Edit[];
  /** Per consumer: its checksums (or why a bare Pod gets none), then its error if any. */
  results: readonly Result[];
}

/**
 * The input's size, which bounds the checksums' work: its UTF-8 length is counted only if the
 * work passes the bound its characters set (a pass over the text: 30 MB took ≈10 ms), which it
 * does not lower (a character is at least one byte).
 */
export interface InputSize {
  characters: number;
  bytes(): number;
}

/**
 * `size`: the input's, which bounds the work (`checksumBudget` of its UTF-8 length). Past the
 * bound, one error result and no further checksums: the run fails and changes nothing.
 */
export function planChecksums({ consumers }: Consumption, size: InputSize): ChecksumPlan {
  const checksummed = new ChecksumTable();
  const edits: Edit[] = [];
  const results: Result[] = [];
  const work = new ChecksumWork(size);
  // Index loops here and in the work's checksums: with inlining off (large inputs), for-of
  // allocated an iterator result per template and source.
  for (let c = 0; c < consumers.length; c++) {
    const planned = consumers[c] as ConsumingTemplate | UnreadConsumer;
    // Reading stopped there (after the resource's templates): what came before it is planned.
    if ('error' in planned) {
      results.push(planned.error);
      continue;
    }
    const { resource, shape, consumed, current, postRenderer, leftover } = planned;
    if (shape === barePod) {
      const names = listNames(consumed.sources);
      const message = `reads ${names}, but a bare Pod is not restarted by an annotation change: no checksum set`;
      results.push(resourceResult(bareTemplate, resource, message));
      continue;
    }
    // One checksum per annotation key (ExternalSecrets, and opt-in sources of their own). The
    // keys stay in `consumed`: no record per source and template (150k on the fan-in bench).
    const groups = byAnnotation(consumed);
    const { annotations } = shape;
    const patch = postRenderer === undefined ? undefined : patchField(resource, postRenderer);
    // The values by annotation are for a HelmRelease's post-renderer entry only.
    const values = postRenderer !== undefined || leftover ? new Map<string, string>() : undefined;
    for (let g = 0; g < groups.length; g++) {
      const covered = groups[g] as Consumed;
      const { annotation } = covered.source(0);
      const value = work.checksum(covered);
      if (value === undefined) {
        results.push(plainResult(overBudgetRule, overBudget(work)));
        return { checksummed, edits, results };
      }
      const field = patch ?? annotationPath(annotations, annotation);
      const patched = patch !== undefined;
      const checksum = new TemplateChecksum(shape, annotation, value, field, covered, patched);
      checksummed.add(resource, checksum);
      values?.set(annotation, value);
      if (postRenderer === undefined && current[annotation] !== value) {
        edits.push({ item: resource.index, path: annotations, key: annotation, value });
      }
      results.push(deferredInfo(checksumRule, resource, checksum));
    }
    if (values && postRenderer !== undefined)
      edits.push(...postRendererEdits(resource, postRenderer, values));
    if (values && leftover) edits.push(...postRendererEdits(resource, leftover, values));
  }
  return { checksummed, edits, results };
}

/**
 * The checksums by resource, in the order their resources are first met: each resource's one
 * checksum, or its list when it has more, found through the item's number (model/item-table.ts),
 * with no Map entry nor list per checksummed resource (10k on the fan-in bench: ≈1 MB).
 */
class ChecksumTable implements ListsBy<Resource, Checksum> {
  private readonly table = new ItemTable<Checksum | Checksum[]>();

  add(resource: Resource, checksum: Checksum): void {
    const place = this.table.placeOf(resource);
    if (place < 0) {
      this.table.add(resource, checksum);
      return;
    }
    const { values } = this.table;
    const had = values[place] as Checksum | Checksum[];
    if (Array.isArray(had)) had.push(checksum);
    else values[place] = [had, checksum];
  }

  private listAt(place: number): readonly Checksum[] {
    const list = this.table.values[place] as Checksum | Checksum[];
    return Array.isArray(list) ? list : [list];
  }

  get(resource: Resource): readonly Checksum[] | undefined {
    const place = this.table.placeOf(resource);
    return place < 0 ? undefined : this.listAt(place);
  }

  keys(): Iterable<Resource> {
    return this.table.owners;
  }

  *values(): IterableIterator<readonly Checksum[]> {
    for (let i = 0; i < this.table.size; i++) yield this.listAt(i);
  }

  /**
   * A resource's one checksum is handed in one list reused for each (a list made per call and
   * this loop in script, not Map's builtin, cost ≈7 M instructions on the mixed bench): the
   * lints read it while called, and keep none.
   */
  forEach(each: (list: readonly Checksum[], resource: Resource) => void): void {
    const { values } = this.table;
    const one: Checksum[] = [];
    this.table.owners.forEach((owner, i) => {
      const list = values[i] as Checksum | Checksum[];
      if (Array.isArray(list)) each(list, owner);
      else {
        one[0] = list;
        each(one, owner);
      }
    });
  }

  *[Symbol.iterator](): Iterator<[Resource, readonly Checksum[]]> {
    const { owners } = this.table;
    for (let i = 0; i < owners.length; i++) yield [owners[i] as Resource, this.listAt(i)];
  }
}

/**
 * A template's sources grouped by their annotation, in the order `consumed` first names each
 * annotation: the template's own reads when they share it, as nearly every template's do (in
 * `oneGroup`, valid until the next call).
 */
function byAnnotation(consumed: Consumed): Consumed[] {
  const first = consumed.source(0).annotation;
  let shared = true;
  for (let i = 1; i < consumed.length && shared; i++)
    shared = consumed.source(i).annotation === first;
  if (shared) {
    oneGroup[0] = consumed;
    return oneGroup;
  }
  const annotations = new Set<string>();
  for (let i = 0; i < consumed.length; i++) annotations.add(consumed.source(i).annotation);
  return [...annotations].map((annotation) =>
    consumed.where((source) => source.annotation === annotation),
  );
}

/**
 * The one group of a template whose sources share their annotation, written over per template: a
 * list made for each was ≈0.6 MB of the sampling heap profile of dense's checksums.
 */
const oneGroup: Consumed[] = [];

/** Field paths of annotations, written once per shape and annotation, not once per template. */
const annotationPaths = new WeakMap<Keys, Map<string, string>>();
function annotationPath(annotations: Keys, annotation: string): string {
  let byKey = annotationPaths.get(annotations);
  if (byKey === undefined) {
    byKey = new Map();
    annotationPaths.set(annotations, byKey);
  }
  let field = byKey.get(annotation);
  if (field === undefined) {
    field = fieldPath(annotations, annotation);
    byKey.set(annotation, field);
  }
  return field;
}

/**
 * The first patch of a HelmRelease's post-renderer entry: where ours is, or where a render
 * appends it (after the entries the list has).
 */
function patchField(resource: Resource, entry: ConsumingTemplate['postRenderer']): string {
  const list = getPath(resource.value, 'spec.postRenderers');
  const index = entry ? entry.index : Array.isArray(list) ? list.length : 0;
  return fieldPath([...patchTrail(index, 0), 'patch']);
}

/**
 * A HelmRelease's checksums as its post-renderer entry: appended when the input has none, else
 * each patch whose text differs set in place (an ordinary edit, numbers in its path).
 */
function postRendererEdits(
  resource: Resource,
  entry: ConsumingTemplate['postRenderer'],
  values: ReadonlyMap<string, string>,
): Edit[] {
  const item = resource.index;
  if (!entry) {
    return [{ item, path: ['spec'], key: 'postRenderers', entry: postRendererEntry(values) }];
  }
  return patchedKinds.flatMap((kind, i) => {
    const value = patchText(kind, values);
    return entry.patches[i] === value
      ? []
      : [{ item, path: patchTrail(entry.index, i), key: 'patch', value }];
  });
}

const MiB = 1024 * 1024;

/**
 * The bytes of canonical JSON a run may write and feed to SHA-256 for its checksums. A source is
 * hashed once for each different set of sources read with it, so one large source (megabytes
 * after YAML aliases) read by many pod templates that each read a small source of their own costs
 * pod templates × its size, quadratic in the input; a bound proportional to the input, like the
 * reader's alias limit, keeps every run linear. Measured (bytes written and hashed per byte of
 * input): at most 0.79 on the examples/ packages and testdata/reach/ manifests
 * (test/checksum-budget.test.ts keeps them under 2), 0.15 on the bench's generated package (1k,
 * 10k, 50k items). 64 per byte is 80 times that; 64 MiB lets a small input carry a source that
 * aliases expand to megabytes (bench/adversarial/large-source.mjs at 100 KB: 6 MB, ratio 60).
 * At the bound, hashing takes ≈1 s for 8 MB of input here (SHA-256 at ≈500 MB/s).
 */
const perInputByte = 64;
const base = 64 * MiB;
export const checksumBudget = (inputBytes: number): number => perInputByte * inputBytes + base;

/** `1.5 MiB`, `64 MiB`, `100 KiB`. */
const size = (bytes: number) =>
  bytes < MiB ? `${Math.ceil(bytes / 1024)} KiB` : `${Number((bytes / MiB).toFixed(1))} MiB`;

function overBudget({ budget, inputBytes, asked, done }: ChecksumWork): string {
  const first = done === 0 ? 'its first checksum asks' : `its first ${done + 1} checksums ask`;
  return `the checksums of this input would hash more than ${size(budget)} (${perInputByte} × its size of ${size(inputBytes)}, + ${size(base)}): ${first} for at least ${size(asked)}; a source is hashed again for each different set of sources read with it, after YAML aliases are expanded`;
}

/** Where the list's entries are written: `[{"content":…,"secret":…},…]`. */
const entryBytes = '{"content":,"secret":}'.length;

/**
 * The checksums of one run, each value hashed once, and the bytes of canonical JSON written and
 * hashed for them counted against `budget` before they are written or hashed.
 */
class ChecksumWork {
  /** Bytes written and hashed so far; with a refusal, what the input asked for. */
  asked = 0;
  /** Checksums computed or found. */
  done = 0;
  /**
   * Values by the contents and Secret names they cover: their pairs' numbers, sorted and joined
   * (`1,5`), or one pair's number itself (a number and a text are different keys).
   */
  private readonly values = new Map<string | number, string>();
  /**
   * Pair numbers by keys read, then source: a Map per key set (sets are shared, `references.ts`),
   * equal sets one Map through their text (`keysId`), so that they share one content. A run reads
   * few key sets and many sources: a Map per source, holding each set and its text, was ≈1 MB of
   * fan-in's checksums that outlived a scavenge (1,667 Maps, two entries per source and set).
   */
  private readonly ids = new Map<KeySet, Map<SecretSource, number>>();
  private readonly idsByText = new Map<string, Map<SecretSource, number>>();
  /** Pair numbers of the sources read whole. */
  private readonly wholeIds = new Map<SecretSource, number>();
  /**
   * Pairs of content (object, or a scalar's canonical JSON) and Secret name, numbered: the first
   * pair of each content.
   */
  private readonly pairs = new Map<object | string, number>();
  /** Pairs of a content with the names it is read under but the first. */
  private readonly morePairs = new Map<object | string, Map<string, number>>();
  /** The pairs by their number. */
  private readonly numbered: Pair[] = [];

  /** The bound on `asked`: set by the input's characters until they are passed, then its bytes. */
  budget: number;
  /** The input's UTF-8 length, once the characters' bound is passed (0 until then). */
  inputBytes = 0;

  constructor(private readonly size: InputSize) {
    this.budget = checksumBudget(size.characters);
  }

  /**
   * sha256 of the canonical JSON list of `{"secret": <Secret name>, "content": <source content>}`,
   * one entry per consumed source, sorted by their canonical JSON; undefined when computing it
   * would pass the budget. Consumers that read the same sources with the same keys get one
   * value, hashed once: a source whose content expands (YAML aliases) to megabytes of text is not
   * hashed again for each of its hundreds of consumers.
   */
  checksum(reads: Consumed): string | undefined {
    // No record per source: most checksums are found by their pairs' numbers alone. A list of one
    // (two in three checksums on fan-out, two in five on dense) by its number: no list sorted
    // and no text joined to look it up. The numbers and entries in lists for the run (`listIds`,
    // `listed`), their first `count`: two lists per checksum were ≈1.8 MB of fan-in's profile.
    const count = reads.length;
    for (let i = 0; i < count; i++) listIds[i] = this.idOf(reads.source(i), reads.keys(i));
    const covered = count === 1 ? (listIds[0] as number) : idsKey(count);
    let value = this.values.get(covered);
    if (value !== undefined) {
      this.done++;
      return value;
    }
    // In the sources' order: the budget is counted as before, content by content.
    let whole = true;
    for (let i = 0; i < count; i++) {
      const entry = this.entry(listIds[i] as number);
      if (entry === undefined) return undefined;
      listed[i] = entry;
      if (entry.text === undefined) whole = false;
    }
    // Each entry's text and the bracket or comma before it, and the last bracket: the bytes to
    // hash, known before one is hashed.
    let bytes = 1;
    for (let i = 0; i < count; i++) bytes += 1 + (listed[i] as Entry).bytes;
    if (!this.spend(bytes)) return undefined;
    value = sha256HexOfPieces(fed, whole ? wholePieces(count) : pieces(listed.slice(0, count)));
    this.values.set(covered, value);
    this.done++;
    return value;
  }

  /** True, and counted, when `bytes` more stay within the budget. */
  private spend(bytes: number): boolean {
    this.asked += bytes;
    if (this.asked <= this.budget) return true;
    if (this.inputBytes === 0) {
      this.inputBytes = this.size.bytes();
      this.budget = checksumBudget(this.inputBytes);
    }
    return this.asked <= this.budget;
  }

  /**
   * The number of the pair a source read with `keys` makes. Some sources build a new object per
   * call (ConfigMap, Secret, SealedSecret narrow to the keys read): one per source and key set,
   * so that it is serialised and hashed once; its number is then found by one look-up, not by its
   * content and again by its pair.
   */
  private idOf(source: SecretSource, keys: KeySet): number {
    // A source read whole (envFrom, a volume), as a third of fan-in's references: one look-up.
    if (keys === 'all') {
      let id = this.wholeIds.get(source);
      if (id === undefined) {
        id = this.pairId(source.content(keys), source.secretName);
        this.wholeIds.set(source, id);
      }
      return id;
    }
    let bySource = this.ids.get(keys);
    if (bySource === undefined) {
      bySource = mapUnder(this.idsByText, keysId(keys));
      this.ids.set(keys, bySource);
    }
    let id = bySource.get(source);
    if (id === undefined) {
      id = this.pairId(source.content(keys), source.secretName);
      bySource.set(source, id);
    }
    return id;
  }

  /**
   * A number for each content and Secret name read together: a content object by identity (its
   * text can be megabytes), a scalar by its canonical JSON.
   */
  private pairId(content: Json, secret: string): number {
    const key = typeof content === 'object' && content !== null ? content : canonicalJson(content);
    // Nearly every content is read under one Secret name: its first pair found by the content
    // alone, a Map by Secret name only for a content read under several (a Map per content was
    // ≈0.5 MB of the sampling heap profile of fan-in's checksums).
    const first = this.pairs.get(key);
    if (first === undefined) {
      const id = this.numberPair(content, secret);
      this.pairs.set(key, id);
      return id;
    }
    if ((this.numbered[first] as Pair).secret === secret) return first;
    const bySecret = mapUnder(this.morePairs, key);
    let id = bySecret.get(secret);
    if (id === undefined) {
      id = this.numberPair(content, secret);
      bySecret.set(secret, id);
    }
    return id;
  }

  private numberPair(content: Json, secret: string): number {
    this.numbered.push({ content, secret });
    return this.numbered.length - 1;
  }

  /**
   * The entry of a pair, written once for all the checksums that cover it (on fan-in, each
   * source is in twenty lists), if its content fits the budget. A scalar content is written, and
   * counted, each time, as `written` does.
   */
  private entry(id: number): Entry | undefined {
    const pair = this.numbered[id] as Pair;
    if (pair.entry !== undefined) return pair.entry;
    const { content, secret } = pair;
    const object = typeof content === 'object' && content !== null;
    const canonical = object ? this.contentOf(content, id) : this.written(content);
    if (canonical === undefined) return undefined;
    const bytes = entryBytes + canonical.bytes + canonicalSize(secret, Infinity);
    const entry: Entry = { content: canonical.text, secret: JSON.stringify(secret), bytes };
    if (object) {
      // Kept for every list that holds it: its text written once (a large one is hashed from its
      // pieces, its content not held twice). The content's text is then a slice of it, which
      // the content's other pairs take (`contentOf`): one copy of it kept, not two (a second was
      // ≈1 MiB of fan-in's peak RSS).
      if (bytes <= wholeBytes) {
        const text = entryText(entry);
        entry.text = text;
        entry.content = text.slice(contentAt, contentAt + canonical.text.length);
      }
      pair.entry = entry;
    }
    return entry;
  }

  /**
   * An object content's canonical JSON: written for its first pair, whose entry its other pairs
   * (other Secret names, rare) take it from. A WeakMap of the texts by content and a record each
   * were ≈0.4 MB of fan-in's checksums that outlived a scavenge, for the few contents read
   * under two names.
   */
  private contentOf(content: Json, id: number): Written | undefined {
    const first = this.pairs.get(content as object) as number;
    if (first === id) return this.written(content);
    const entry = this.entry(first);
    if (entry === undefined) return undefined;
    const { secret } = this.numbered[first] as Pair;
    return {
      text: entry.content,
      bytes: entry.bytes - entryBytes - canonicalSize(secret, Infinity),
    };
  }

  /** A content's canonical JSON, if it fits the budget (measured first). */
  private written(content: Json): Written | undefined {
    const order = { sorted: false };
    const bytes = canonicalSize(content, this.budget - this.asked, order);
    if (!this.spend(bytes)) return undefined;
    return { text: canonicalJson(content, order.sorted), bytes };
  }
}

/** A content's canonical JSON and its UTF-8 length. */
interface Written {
  text: string;
  bytes: number;
}

/** A content and the Secret name read with it, and once written, their entry of the list. */
interface Pair {
  content: Json;
  secret: string;
  entry?: Entry;
}

export interface Entry {
  /** Canonical JSON of the content and of the Secret name. */
  content: string;
  secret: string;
  /** The UTF-8 length of the entry's text. */
  bytes: number;
  /** The entry's whole text, for an entry kept for many lists and at most `wholeBytes` long. */
  text?: string;
}

/**
 * Entries up to this size are hashed from their whole text, written once (`Entry.text`): on
 * fan-in each is in twenty lists, and writing it to UTF-8 as four pieces for each was most of the
 * time of hashing there (600k calls to the encoder). A quarter of the hash's buffer.
 */
const wholeBytes = 16 * 1024;

const entryText = (e: Entry) => `{"content":${e.content},"secret":${e.secret}}`;
/** Where the content starts in `entryText`. */
const contentAt = '{"content":'.length;

/**
 * The list of the first `count` entries of `listed`, whose whole texts are kept (nearly every
 * list): the texts sorted as texts, compared inline (sortValues), which is the list's order by
 * definition; entryOrder is that order found without an entry's whole text, through a call per
 * comparison (twenty entries a list on fan-in). Sorted where they are then written, into `fed`,
 * with the bracket or comma before each; returns how many of its pieces count.
 */
function wholePieces(count: number): number {
  for (let i = 0; i < count; i++) fed[i] = (listed[i] as Entry).text as string;
  sortValues(fed, count);
  // From the last: each text moves to its place, after the place it leaves.
  fed[2 * count] = ']';
  for (let i = count - 1; i >= 0; i--) {
    fed[2 * i + 1] = fed[i] as string;
    fed[2 * i] = i === 0 ? '[' : ',';
  }
  return 2 * count + 1;
}

/**
 * The list's text as its entries in entryOrder, the brackets and the commas between them, hashed
 * in chunks of up to 64 KiB (sha256HexOfPieces): an entry's whole text, or a larger entry as its
 * content, the Secret's name and the constant texts between them (a content larger than the chunk
 * is not copied). Written into `fed`; returns how many of its pieces count.
 */
function pieces(entries: Entry[]): number {
  sortShort(entries, entryOrder);
  let n = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as Entry;
    fed[n++] = i === 0 ? '[' : ',';
    if (e.text !== undefined) {
      fed[n++] = e.text;
      continue;
    }
    // Keys in canonical order: "content" < "secret".
    fed[n++] = '{"content":';
    fed[n++] = e.content;
    fed[n++] = ',"secret":';
    fed[n++] = e.secret;
    fed[n++] = '}';
  }
  fed[n++] = ']';
  return n;
}

/**
 * The pieces of the list being hashed: one list for the run, written over, not one per checksum
 * (a list a checksum was 5.3 MB on the fan-in bench, with four pieces an entry). Its entries past the count
 * are pieces of earlier lists, most of them kept anyway (each pair's entry).
 */
const fed: string[] = [];
/** A checksum's pair numbers, and its entries: lists for the run, written over like `fed`. */
const listIds: number[] = [];
const listed: Entry[] = [];

/**
 * The first `count` of `listIds`, sorted, in a list of that length (`idsKey` reads them all): one
 * list per length up to `pooledLength` for the run, written over, not a copy per checksum (≈1.5 MB
 * of the sampling heap profile of fan-in's checksums).
 */
function sortedIds(count: number): number[] {
  let sorted = byLength[count];
  if (sorted === undefined) {
    sorted = new Array<number>(count);
    if (count <= pooledLength) byLength[count] = sorted;
  }
  for (let i = 0; i < count; i++) sorted[i] = listIds[i] as number;
  return sortValues(sorted);
}
const pooledLength = 64;
const byLength: number[][] = [];

/**
 * The first `count` of `listIds` as a text equal for equal sets: sorted, a character per number
 * (below 32,768, as a run's pairs nearly always are), not their decimals joined (≈100 characters
 * for fan-in's twenty sources a pod, and a string per number while joining: the values' Map keeps
 * each text for the whole stage, ≈1 MB of old generation on fan-in). Otherwise, or past
 * `pooledLength` numbers, their decimals joined after U+FFFF, which no character text starts with.
 */
function idsKey(count: number): string {
  const sorted = sortedIds(count);
  // Sorted: the last is the largest.
  if (count <= pooledLength && (sorted[count - 1] as number) < 0x8000) {
    return String.fromCharCode.apply(undefined, sorted);
  }
  return `\uffff${sorted.join()}`;
}

/** The order of the entries' texts, found without writing a large content's text again. */
export function entryOrder(a: Entry, b: Entry): number {
  // Equal contents: the names decide (no JSON string is a proper prefix of another).
  if (a.content === b.content) return textOrder(a.secret, b.secret);
  // Of canonical JSON texts only a number can be a proper prefix of another (`1`, `12`): what
  // follows it then decides. Otherwise one comparison of the contents, not a scan per prefix test.
  if (maybePrefix(a.content, b.content) || maybePrefix(b.content, a.content)) {
    return textOrder(entryText(a), entryText(b));
  }
  return a.content < b.content ? -1 : 1;
}

function maybePrefix(short: string, long: string): boolean {
  const c = short.charCodeAt(0);
  return (c === 45 /* - */ || (c >= 48 && c <= 57)) /* 0-9 */ && long.startsWith(short);
}

/** The keys read, as a text equal for equal sets. */
export const keysId = (keys: KeySet): string =>
  keys === 'all' ? 'all' : JSON.stringify([...keys].sort());
