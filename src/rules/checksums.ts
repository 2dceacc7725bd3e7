// Stage 3: one checksum per pod template over every secret source it consumes, independent of
// item order.

import type { Edit } from '../model/edit.js';
import { type ListsBy, mapUnder } from '../model/fold.js';
import {
  canonicalJson,
  canonicalSize,
  type KeyOrder,
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
   * The values of lists of two pairs or more, by the pairs they cover: each list's reads and
   * value at twice its place and the next, its places by a hash of its sorted pair numbers in an
   * open-addressed table (place + 1; 0: free), and each place's hash, which a candidate must
   * have before its numbers are compared. A Map keyed by the numbers as a text kept a text and
   * an entry per list (≈7,900 on the fan-in bench: 0.9 MB of its checksums that outlived a
   * scavenge); a list of one pair keeps its value in the pair (`Pair.alone`).
   */
  private readonly lists: (Consumed | string)[] = [];
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(512);
  private listCount = 0;
  /**
   * Pair numbers by keys read, then source, through the numbers the consumers gave them
   * (`Consumed`): a table per key set, by the set's number (sets are shared, `references.ts`;
   * 0: read whole), equal sets one table through their text (`keysId`), so that they share one
   * content. A run reads few key sets and many sources: a Map per source, holding each set and
   * its text, was ≈1 MB of fan-in's checksums that outlived a scavenge (1,667 Maps, two entries
   * per source and set); a Map per set by source, 0.45 MB.
   */
  private readonly byKeys: (PairsOfKeys | undefined)[] = [];
  private readonly byKeysText = new Map<string, PairsOfKeys>();
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
    // (two in three checksums on fan-out, two in five on dense) in its pair: no list sorted nor
    // hashed to look it up. The numbers and entries in lists for the run (`listIds`,
    // `listed`), their first `count`: two lists per checksum were ≈1.8 MB of fan-in's profile.
    const count = reads.length;
    for (let i = 0; i < count; i++) listIds[i] = this.idOf(reads, i);
    const alone = count === 1 ? (this.numbered[listIds[0] as number] as Pair) : undefined;
    // Where a new list's place goes in the table; its hash.
    let slot = -1;
    let hash = 0;
    let value: string | undefined;
    if (alone !== undefined) value = alone.alone;
    else {
      hash = hashOf(sortIds(count), count);
      slot = this.slotOf(hash, count);
      const place = (this.slots[slot] as number) - 1;
      if (place >= 0) value = this.lists[2 * place + 1] as string;
    }
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
    if (alone !== undefined) alone.alone = value;
    else this.addList(slot, hash, reads, value);
    this.done++;
    return value;
  }

  /**
   * The slot of the list whose sorted pair numbers `sortedIds` holds (its first `count`), or the
   * free slot where it goes: a place whose hash is the list's is that list when the hash is a
   * pair of numbers itself (`hashOf`), else has its numbers compared.
   */
  private slotOf(hash: number, count: number): number {
    const { slots, hashes, lists } = this;
    const mask = slots.length - 1;
    for (let slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      const place = (slots[slot] as number) - 1;
      if (place < 0) return slot;
      if (hashes[place] !== hash) continue;
      if (hash >= 0 || this.covers(lists[2 * place] as Consumed, count)) return slot;
    }
  }

  /** Whether `reads` cover the pairs `sortedIds` holds (its first `count`). */
  private covers(reads: Consumed, count: number): boolean {
    if (reads.length !== count) return false;
    for (let i = 0; i < count; i++) otherIds[i] = this.idOf(reads, i);
    sortValues(otherIds, count);
    for (let i = 0; i < count; i++) if (otherIds[i] !== sortedIds[i]) return false;
    return true;
  }

  /** A new list at the free slot `slotOf` found; the table doubles past half full. */
  private addList(slot: number, hash: number, reads: Consumed, value: string): void {
    const place = this.listCount++;
    this.lists.push(reads, value);
    if (place === this.hashes.length) {
      const hashes = new Int32Array(2 * place);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[place] = hash;
    this.slots[slot] = place + 1;
    if (2 * this.listCount <= this.slots.length) return;
    // Each place again by its hash, in a table twice the size.
    const slots = new Int32Array(2 * this.slots.length);
    const mask = slots.length - 1;
    for (let p = 0; p < this.listCount; p++) {
      let s = spread(this.hashes[p] as number) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = p + 1;
    }
    this.slots = slots;
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
   * The number of the pair the `i`-th source of `reads` makes, read with its keys. Some sources
   * build a new object per call (ConfigMap, Secret, SealedSecret narrow to the keys read): one
   * per source and key set, so that it is serialised and hashed once; its number is then found
   * by its source's and key set's numbers, not by its content and again by its pair.
   */
  private idOf(reads: Consumed, i: number): number {
    const keysNumber = reads.keysNumber(i);
    let pairs = this.byKeys[keysNumber];
    if (pairs === undefined) {
      const text = keysId(reads.keys(i));
      pairs = this.byKeysText.get(text);
      if (pairs === undefined) {
        pairs = new PairsOfKeys(reads.sourceCount);
        this.byKeysText.set(text, pairs);
      }
      this.byKeys[keysNumber] = pairs;
    }
    const sourceNumber = reads.sourceNumber(i);
    let id = pairs.get(sourceNumber);
    if (id < 0) {
      const source = reads.source(i);
      id = this.pairId(source.content(reads.keys(i)), source.secretName);
      pairs.set(sourceNumber, id);
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
    this.numbered.push({ content, secret, entry: undefined, alone: undefined });
    return this.numbered.length - 1;
  }

  /**
   * The entry of a pair, written once for all the checksums that cover it (on fan-in, each
   * source is in twenty lists), if its content fits the budget. A scalar content is written, and
   * counted, each time, as `measured` does. An object content's canonical JSON is written for its
   * first pair, whose entry its other pairs (other Secret names, rare) take it from: one copy of
   * it kept (a WeakMap of the texts by content and a record each were ≈0.4 MB of fan-in's
   * checksums that outlived a scavenge; a second copy beside the entry's text ≈1 MiB of its peak).
   */
  private entry(id: number): Entry | undefined {
    const pair = this.numbered[id] as Pair;
    if (pair.entry !== undefined) return pair.entry;
    const { content, secret } = pair;
    const secretBytes = canonicalSize(secret, Infinity);
    if (typeof content !== 'object' || content === null) {
      const order = { sorted: false };
      const size = this.measured(content, order);
      if (size === undefined) return undefined;
      const bytes = entryBytes + size + secretBytes;
      return {
        content: canonicalJson(content, order.sorted),
        secret: JSON.stringify(secret),
        bytes,
      };
    }
    const first = this.pairs.get(content) as number;
    let entry: Entry;
    if (first === id) {
      const order = { sorted: false };
      const size = this.measured(content, order);
      if (size === undefined) return undefined;
      const bytes = entryBytes + size + secretBytes;
      // Kept for every list that holds it: its whole text written at once, by the writer of the
      // content's canonical JSON (the entry's keys are in order), not the content's text and the
      // name's and then the three joined, each kept (≈110 bytes a pair beside its text: 0.4 MB
      // of fan-in's checksums that outlived a scavenge). A large one is hashed from its pieces.
      entry =
        bytes <= wholeBytes
          ? new WholeEntry(canonicalJson({ content, secret }, order.sorted), bytes)
          : {
              content: canonicalJson(content, order.sorted),
              secret: JSON.stringify(secret),
              bytes,
            };
    } else {
      const shared = this.entry(first);
      if (shared === undefined) return undefined;
      const { secret: firstSecret } = this.numbered[first] as Pair;
      const bytes = shared.bytes - canonicalSize(firstSecret, Infinity) + secretBytes;
      const written = { content: shared.content, secret: JSON.stringify(secret), bytes };
      entry = bytes <= wholeBytes ? new WholeEntry(entryText(written), bytes) : written;
    }
    pair.entry = entry;
    return entry;
  }

  /**
   * The UTF-8 length of a content's canonical JSON, counted against the budget before it is
   * written; undefined past it. `order`: whether its keys are in order already (canonicalSize).
   */
  private measured(content: Json, order: KeyOrder): number | undefined {
    const bytes = canonicalSize(content, this.budget - this.asked, order);
    return this.spend(bytes) ? bytes : undefined;
  }
}

/**
 * The pair numbers of the sources read with one key set, by source number: a Map while few of
 * the run's sources are read so, then a column of them all (number + 1; 0: none), which takes
 * less room than the Map's entries once a sixteenth of the sources have one (on fan-in, each set
 * is read of most of its 2,000 sources), and never more than twice theirs.
 */
class PairsOfKeys {
  private map: Map<number, number> | undefined = new Map();
  private column: Int32Array | undefined;

  constructor(private readonly sources: number) {}

  /** The source's pair number, or -1. */
  get(source: number): number {
    const { column } = this;
    if (column !== undefined) return (column[source] as number) - 1;
    return (this.map as Map<number, number>).get(source) ?? -1;
  }

  set(source: number, id: number): void {
    if (this.column !== undefined) {
      this.column[source] = id + 1;
      return;
    }
    const map = this.map as Map<number, number>;
    map.set(source, id);
    if (16 * map.size < this.sources) return;
    const column = new Int32Array(this.sources);
    map.forEach((pair, at) => {
      column[at] = pair + 1;
    });
    this.column = column;
    this.map = undefined;
  }
}

/**
 * A content and the Secret name read with it, and once written, their entry of the list: made
 * with every key it gets (a key added later went to a store of its own, 40 bytes a pair).
 */
interface Pair {
  content: Json;
  secret: string;
  entry: Entry | undefined;
  /** The value of the list of this pair alone, once hashed. */
  alone: string | undefined;
}

export interface Entry {
  /** Canonical JSON of the content and of the Secret name. */
  readonly content: string;
  readonly secret: string;
  /** The UTF-8 length of the entry's text. */
  readonly bytes: number;
  /** The entry's whole text, for an entry kept for many lists and at most `wholeBytes` long. */
  readonly text?: string;
}

/**
 * An entry kept whole (nearly every one): its content and Secret name are read from its text
 * when asked (a list that holds a larger entry, another name for its content), not kept beside it.
 */
class WholeEntry implements Entry {
  constructor(
    readonly text: string,
    readonly bytes: number,
  ) {}

  get content(): string {
    return this.text.slice(contentAt, this.text.lastIndexOf(secretAt));
  }

  get secret(): string {
    return this.text.slice(this.text.lastIndexOf(secretAt) + secretAt.length, -1);
  }
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
 * What ends the content in `entryText`: its last occurrence, since the name's JSON string has
 * every `"` in it escaped.
 */
const secretAt = ',"secret":';

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
 * The first `count` of `listIds`, sorted, in `sortedIds` (its first `count`): a list for the run,
 * written over, not a copy per checksum (≈1.5 MB of the sampling heap profile of fan-in's
 * checksums). `otherIds`: a candidate's numbers, compared with them.
 */
function sortIds(count: number): number[] {
  for (let i = 0; i < count; i++) sortedIds[i] = listIds[i] as number;
  return sortValues(sortedIds, count);
}
const sortedIds: number[] = [];
const otherIds: number[] = [];

/**
 * A hash of the first `count` numbers, sorted. Two numbers below 2^15 (most lists of two: the
 * lists of one or two sources are most of dense's and fan-out's) are the hash themselves, which
 * no other list's has: the hash then says the list, and no candidate's numbers are read again.
 * Any other list's (FNV-1a over its numbers) has its sign bit set.
 */
function hashOf(numbers: readonly number[], count: number): number {
  if (count === 2 && (numbers[1] as number) < 0x8000) {
    return ((numbers[0] as number) << 15) | (numbers[1] as number);
  }
  let hash = 0x811c9dc5;
  for (let i = 0; i < count; i++) hash = Math.imul(hash ^ (numbers[i] as number), 0x01000193);
  return hash | 0x80000000;
}

/** A hash's bits mixed, so that its low bits index the table (murmur3's finalizer). */
function spread(hash: number): number {
  let mixed = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
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
