// Stage 2: the consumers, found by their pod templates: which sources each template reads (and so
// comes after), and the references no source in the input answers. A workload or pod template that
// opts out (secret-rollout/ignore) gets no checksum, but still orders its sources before it: the
// wave is written on the source, never on the workload, and its pods need the Secret to start.
import type { Config } from '../model/config.js';
import { annotationField } from '../model/edit.js';
import { addTo } from '../model/fold.js';
import { isObject } from '../model/json.js';
import { grouped } from '../model/numbers.js';
import { fieldPath, getPath, type Keys } from '../model/path.js';
import { describeType, ItemError, type Resource, readAnnotations } from '../model/resource.js';
import {
  checksumBudget,
  helmReleaseRead,
  optedOut as optedOutRule,
  postRendererLeftover,
} from '../model/result-rules.js';
import { plainResult, type Result, resourceResult } from '../model/results.js';
import type { KeyedRead, UnresolvedRef } from './lints/lint.js';
import type { Produced, ProducedNames, Producers } from './producers.js';
import { sourceKindOf } from './sources/index.js';
import { readsMissingKey, type SecretSource } from './sources/source.js';
import { FirstPlaces, guardedRead, listNames, unionKeys } from './stage.js';
import {
  checksumPathFor,
  helmReads,
  isHelmRelease,
  type OurEntry,
  ourEntry,
} from './workloads/helm-release.js';
import { optedOut, optOutKey } from './workloads/opt-out.js';
import {
  type KeySet,
  type ProducedKind,
  readUses,
  type SecretUse,
  usesRead,
} from './workloads/references.js';
import {
  barePod,
  type PodTemplate,
  type PodTemplateShape,
  podTemplatesOf,
} from './workloads/shapes.js';

/**
 * Numbers written in chunks that are never copied: a column grown by copies left each copy in the
 * old generation (off the heap for a typed array, but freed only by a full collection, which a run
 * seldom gets), as much again as it holds. Chunks double from 1,024 numbers to 64 Ki, so a small
 * input takes 4 KB, a large one at most 256 KB unused.
 */
class Chunks {
  /** The chunks before the current one, and how many numbers each holds. */
  private readonly filled: Int32Array[] = [];
  private readonly filledLengths: number[] = [];
  chunk = new Int32Array(1024);
  /** How many numbers the current chunk holds. */
  used = 0;

  /** Room for `count` more numbers together in the current chunk, written at `used`. */
  reserve(count: number): void {
    if (this.used + count <= this.chunk.length) return;
    this.filled.push(this.chunk);
    this.filledLengths.push(this.used);
    this.chunk = new Int32Array(Math.max(count, Math.min(2 * this.chunk.length, 65536)));
    this.used = 0;
  }

  /** Each chunk with how many numbers it holds, in the order written. */
  forEach(visit: (chunk: Int32Array, length: number) => void): void {
    for (let i = 0; i < this.filled.length; i++) {
      visit(this.filled[i] as Int32Array, this.filledLengths[i] as number);
    }
    visit(this.chunk, this.used);
  }
}

/**
 * Every pod template's sources and keys read, as the run's columns: per row a source's number
 * (`Produced.id`) and its key set's number, a template's rows together. Two lists per template
 * and their record were ≈450 bytes a template on the fan-in bench (20 sources a pod: 3.5 MB kept
 * to the plan); its rows here are 8 bytes each.
 */
class Reads {
  readonly rows = new Chunks();
  /** The sources by number, as the templates read them. */
  readonly sources: (SecretSource | undefined)[] = [];
  /** The key sets read, by number: a few, shared (`references.ts` oneKey); 0 is all keys. */
  readonly keySets: KeySet[] = ['all'];
  private readonly keyNumbers = new Map<KeySet, number>();
  /** The set numbered last: a template's keyed reads often repeat it. */
  private lastKeys: KeySet = 'all';
  private lastNumber = 0;

  constructor(numbered: number) {
    // Pushed, not `new Array(numbered)`: a long one is made in dictionary mode.
    for (let id = 0; id < numbered; id++) this.sources.push(undefined);
  }

  /** Room for `count` rows, together. */
  reserve(count: number): void {
    this.rows.reserve(2 * count);
  }

  /** A row, in the room `reserve` made. */
  add(id: number, keys: KeySet): void {
    // Written here, not by a method of Chunks: with inlining off (large inputs) each is a call.
    const { rows } = this;
    rows.chunk[rows.used++] = id;
    rows.chunk[rows.used++] = keys === 'all' ? 0 : this.numberOf(keys);
  }

  /** The number of a set of keys read, a new one the first time. */
  private numberOf(keys: ReadonlySet<string>): number {
    if (keys === this.lastKeys) return this.lastNumber;
    let number = this.keyNumbers.get(keys);
    if (number === undefined) {
      number = this.keySets.length;
      this.keySets.push(keys);
      this.keyNumbers.set(keys, number);
    }
    this.lastKeys = keys;
    this.lastNumber = number;
    return number;
  }
}

/** The sources a pod template reads, each once, and the keys it reads of each, by position. */
export class Consumed {
  /** Its rows' chunk of the run's columns, and where they start in it. */
  private readonly chunk: Int32Array;
  private readonly start: number;

  constructor(
    private readonly reads: Reads,
    readonly length: number,
  ) {
    this.chunk = reads.rows.chunk;
    this.start = reads.rows.used - 2 * length;
  }

  source(i: number): SecretSource {
    return this.reads.sources[this.chunk[this.start + 2 * i] as number] as SecretSource;
  }

  keys(i: number): KeySet {
    return this.reads.keySets[this.chunk[this.start + 2 * i + 1] as number] as KeySet;
  }

  /** The number of the `i`-th source among the run's (below `sourceCount`). */
  sourceNumber(i: number): number {
    return this.chunk[this.start + 2 * i] as number;
  }

  /** The number of the key set read of the `i`-th source, by identity (0: read whole). */
  keysNumber(i: number): number {
    return this.chunk[this.start + 2 * i + 1] as number;
  }

  /** How many sources the run numbers. */
  get sourceCount(): number {
    return this.reads.sources.length;
  }

  /** The sources in a list, made when asked (messages, `plan`, `impact`, lints). */
  get sources(): SecretSource[] {
    const sources = new Array<SecretSource>(this.length);
    for (let i = 0; i < this.length; i++) sources[i] = this.source(i);
    return sources;
  }

  /** The sources `keep` keeps, with their keys, in order: a Consumed of rows of their own. */
  where(keep: (source: SecretSource) => boolean): Consumed {
    const { reads } = this;
    let count = 0;
    for (let i = 0; i < this.length; i++) if (keep(this.source(i))) count++;
    reads.reserve(count);
    for (let i = 0; i < this.length; i++) {
      const source = this.source(i);
      if (keep(source)) reads.add(this.chunk[this.start + 2 * i] as number, this.keys(i));
    }
    return new Consumed(reads, count);
  }
}

/** A pod template that reads at least one source, for the checksum. */
export interface ConsumingTemplate {
  resource: Resource;
  /** Its shape: the template itself (its PodSpec) is not kept. */
  shape: PodTemplateShape;
  /** The sources that count for its checksum, with the keys it reads of each. */
  consumed: Consumed;
  /** Its annotations as the input has them (none read for a bare Pod, which gets no checksum). */
  current: Readonly<Record<string, string>>;
  /** A HelmRelease's post-renderer: our entry in the input, if any (null: none yet). */
  postRenderer?: OurEntry | null;
  /** A HelmRelease's checksum at a values path: our post-renderer entry from before, kept updated. */
  leftover?: OurEntry;
}

/** A malformed field that stopped the reading of a resource: its templates after it are not read. */
export interface UnreadConsumer {
  resource: Resource;
  error: Result;
}

export interface Consumption {
  /**
   * The pod templates that read a source, and after a resource's templates the error that
   * stopped reading it, in input order: a flat list, not a record and a list per resource (104
   * bytes a workload on the fan-in bench, kept through the checksums stage).
   */
  consumers: readonly (ConsumingTemplate | UnreadConsumer)[];
  /**
   * The resources whose pod templates read each source (opt-in references included), each once,
   * in input order.
   */
  consumersOf: ReadonlyMap<SecretSource, readonly Resource[]>;
  /** References that no source in the resource's own namespace produces. */
  unresolved: ReadonlyMap<Resource, readonly UnresolvedRef[]>;
  /** References that read a named key their sources will not produce (`readsMissingKey`). */
  keyedReads: readonly KeyedRead[];
  /** An info per pod template that reads sources but opts out of its checksum. */
  results: readonly Result[];
}

/** The annotations of a pod template that has none. */
const noAnnotations: Readonly<Record<string, string>> = Object.freeze({});

/** A shape's paths as results print them: shapes are few, workloads many. */
const printedPaths = new WeakMap<Keys, string>();
function printed(keys: Keys): string {
  let text = printedPaths.get(keys);
  if (text === undefined) {
    text = fieldPath(keys);
    printedPaths.set(keys, text);
  }
  return text;
}

/**
 * Source reads one run follows: one per character of input, and a million more. A reference reads
 * every source writing its Secret, so thousands of sources writing one Secret, read by thousands
 * of pod templates, cost their product (bench/adversarial check-covers: run mode, 4 MB 119 s).
 */
const readBudget = (characters: number): number => characters + (1 << 20);

/** Thrown by Gather past the run's budget of source reads: the stage stops where it is. */
class TooManyReads extends Error {
  constructor(readonly produced: Produced) {
    super('too many source reads');
  }
}

/** The error past the budget, naming the Secret whose sources were being read. */
function tooManyReads(budget: number, characters: number, { sources }: Produced): Result {
  const first = sources[0] as SecretSource;
  const secret = `${first.produces} ${first.namespace === undefined ? '' : `${first.namespace}/`}${first.secretName}`;
  return plainResult(
    checksumBudget,
    `the pod templates of this input read more than ${grouped(budget)} sources in all (one per character of its ${grouped(characters)}, + ${grouped(1 << 20)}): a reference reads every source writing its Secret, and ${secret} has ${grouped(sources.length)}; write each Secret from one source`,
  );
}

export function findConsumers(
  resources: readonly Resource[],
  producers: Producers,
  config: Config,
  characters: number,
): Consumption {
  const consumers: (ConsumingTemplate | UnreadConsumer)[] = [];
  const budget = readBudget(characters);
  const scan = new Scan(producers, config, new Gather(producers.numbered, budget), consumers);
  const { gather, unresolved, keyedReads, results } = scan;
  // One list for the run: a resource's reading stops at its first malformed field, most never.
  const errors: Result[] = [];
  try {
    // Index loops: with inlining off (large inputs), for-of allocated an iterator result per item,
    // template and source read.
    for (let i = 0; i < resources.length; i++) {
      const resource = resources[i] as Resource;
      if (sourceKindOf(resource)) continue;
      const helm = isHelmRelease(resource);
      // Found without reading a field that can be malformed: most items have no pod template, and
      // get no closure or lists.
      const templatesRead = helm ? noTemplates : podTemplatesOf(resource, config.podTemplates);
      if (!helm && templatesRead.length === 0) continue;
      scan.position = i;
      scan.templates = templatesRead;
      scan.unresolvedHere = 0;
      // The scan's own functions, made once: a closure per workload, with its context, was ≈1.4 MB
      // of the stage's allocation on fan-in at 10k items.
      guardedRead(errors, resource, helm ? scan.helm : scan.workload);
      const error = errors.pop();
      if (error) consumers.push({ resource, error });
      // Kept at its length: a list pushed to has room for 17 (2,095 of fan-in's 10k workloads).
      if (scan.unresolvedHere > 1) {
        unresolved.set(resource, (unresolved.get(resource) as UnresolvedRef[]).slice());
      }
    }
  } catch (error) {
    if (!(error instanceof TooManyReads)) throw error;
    // What was found so far goes on: the error fails the run, which then changes nothing.
    results.push(tooManyReads(budget, characters, error.produced));
  }
  return {
    consumers,
    consumersOf: gather.consumersOf(resources),
    unresolved,
    keyedReads,
    results,
  };
}

const noTemplates: readonly PodTemplate[] = [];

/** What findConsumers finds, and the resource it reads: its pod templates, or a HelmRelease's. */
class Scan {
  readonly unresolved = new Map<Resource, UnresolvedRef[]>();
  readonly keyedReads: KeyedRead[] = [];
  readonly results: Result[] = [];
  /** The resource's position in the resources, its pod templates, its references unresolved. */
  position = 0;
  templates: readonly PodTemplate[] = noTemplates;
  unresolvedHere = 0;

  constructor(
    private readonly producers: Producers,
    private readonly config: Config,
    readonly gather: Gather,
    private readonly consumers: (ConsumingTemplate | UnreadConsumer)[],
  ) {}

  readonly helm = (resource: Resource): void => {
    const { producers, config, gather, position, results } = this;
    const found = helmConsumer(resource, producers, config, gather, position, results);
    if (found) this.consumers.push(found);
  };

  readonly workload = (resource: Resource): void => {
    const { producers, config, gather, templates: templatesRead, unresolved } = this;
    // Read where it matters only: on a workload that reads a source.
    let wholly: boolean | undefined;
    // The names its namespace has of the kind read last: references of one kind follow each
    // other (the reference table's order).
    let kindRead: ProducedKind | undefined;
    let names: ProducedNames | undefined;
    for (let t = 0; t < templatesRead.length; t++) {
      const template = templatesRead[t] as PodTemplate;
      // Every reference orders its source first; opt-in ones count for the checksum only when on.
      gather.next();
      const { shape } = template;
      const uses = readUses(template.podSpec, shape.podSpec);
      for (let index = 0; index < uses; index++) {
        const use = usesRead[index] as SecretUse;
        if (use.kind !== kindRead) {
          kindRead = use.kind;
          names = producers.producedIn(kindRead, resource.namespace);
        }
        const produced = names?.get(use.secretName);
        if (produced === undefined) {
          const field = printed(shape.podSpec);
          const { kind, secretName: name } = use;
          this.unresolvedHere++;
          addTo(unresolved, resource, {
            kind,
            name,
            field,
            podSpec: shape.podSpec,
            use: index,
          });
          continue;
        }
        const { sources } = produced;
        // Kept only when a key is missing: a record per keyed reference lived from here to
        // the lints (106k, ≈7 MB on the fan-in bench), for a lint that warns about a few.
        if (use.keys !== 'all' && readsMissingKey(produced.keys(), use.keys)) {
          this.keyedReads.push({
            consumer: resource,
            sources,
            keys: use.keys,
            podSpec: shape.podSpec,
            use: index,
          });
        }
        const counts = !use.optIn || config[use.optIn];
        for (let k = 0; k < sources.length; k++) {
          gather.readBy(produced, k, this.position);
          if (counts) gather.add(produced, k, use.keys);
        }
      }
      const consumed = gather.done();
      if (consumed === undefined) continue;
      const { annotations } = shape;
      const found = shape === barePod ? undefined : getPath(resource.value, annotations);
      // None read: one shared empty record, not a new one per template (readAnnotations').
      const current =
        found === undefined || found === null
          ? noAnnotations
          : readAnnotations(found, printed(annotations));
      wholly ??= optedOut(resource.annotations, ['metadata']);
      const optOut = wholly ? ['metadata'] : optedOut(current, shape.metadata) && shape.metadata;
      if (optOut) {
        this.results.push(optedOutResult(resource, consumed, optOut));
        continue;
      }
      this.consumers.push({ resource, shape, consumed, current });
    }
  };
}

/**
 * Each pod template's sources and keys, gathered in turn, and every source's consumers, kept by
 * the source's number (`Produced.id`): a Map keyed by the source was a look-up per source a
 * reference names (150k references on the fan-in bench at 10k items, 1.5M at 100k, where each cost
 * ≈0.7 µs of cache misses over the heap), a record per source and a Map per template before that.
 * A template's reads are gathered in two reused lists and copied out into the run's columns
 * (`Reads`), not grown per template.
 */
class Gather {
  /**
   * Each source's readers as pairs of its number and the reader's position in the resources, in
   * the order found, each reader once per source (`lastReader`); the lists are made from them at
   * their length once every read is found. A list per source grown by push was copied at 17, 41,
   * 77 and 131 entries for the fan-in bench's ≈80 readers, each copy kept by the scavenger to the
   * end of the run: ≈2 MB of old generation on fan-in, and 0.8 MB of room never filled.
   */
  private readonly readPairs = new Chunks();
  /** How many resources read each source. */
  private readonly readerCount: Int32Array;
  /** The position of the resource that read each source last (-1: none). */
  private readonly lastReader: Int32Array;
  /** Where each source was last gathered, counted over every template so far (-1: never). */
  private readonly at: Int32Array;
  /** The sources read and their numbers, in the order first read (consumersOf keeps it). */
  private readonly firstRead: SecretSource[] = [];
  private readonly firstIds: number[] = [];
  /** Sources gathered, counted over every template so far. */
  private gathered = 0;
  /** Where the current template's sources start in that count. */
  private start = 0;
  /** The current template's sources (by number) and keys: the first `count` entries. */
  private readonly ids: number[] = [];
  private readonly keys: KeySet[] = [];
  /**
   * Whether `keys[i]` is a Set this gather made (a union), which later reads add to in place: a
   * new union per read copied every key read before (n keys of one Secret in one template: n²/2).
   * The first read's Set may be shared (references.ts oneKey), so it is never written.
   */
  private readonly madeKeys: boolean[] = [];
  private count = 0;
  /** Every template's, once done. */
  private readonly reads: Reads;

  /** Source reads so far, against the run's budget (readBudget). */
  private sourceReads = 0;

  constructor(
    private readonly numbered: number,
    private readonly budget: number,
  ) {
    this.reads = new Reads(numbered);
    this.readerCount = new Int32Array(numbered);
    this.lastReader = new Int32Array(numbered).fill(-1);
    this.at = new Int32Array(numbered).fill(-1);
  }

  /** Starts gathering the next template's reads. */
  next(): void {
    this.start = this.gathered;
    this.count = 0;
  }

  /**
   * The resource at `reader` (its position in the resources) reads the `k`-th source of `produced`
   * (and so comes after it, opted out or not).
   */
  readBy(produced: Produced, k: number, reader: number): void {
    if (++this.sourceReads > this.budget) throw new TooManyReads(produced);
    const id = produced.id + k;
    if (this.lastReader[id] === reader) return;
    this.lastReader[id] = reader;
    if ((this.readerCount[id] as number) === 0) {
      this.firstRead.push(produced.sources[k] as SecretSource);
      this.firstIds.push(id);
    }
    (this.readerCount[id] as number)++;
    const pairs = this.readPairs;
    pairs.reserve(2);
    pairs.chunk[pairs.used++] = id;
    pairs.chunk[pairs.used++] = reader;
  }

  /**
   * A read of `keys` of the `k`-th source of `produced` that counts for the template's checksum:
   * the keys join those read of it before, in this template.
   */
  add(produced: Produced, k: number, keys: KeySet): void {
    const id = produced.id + k;
    const at = this.at[id] as number;
    if (at >= this.start) {
      const i = at - this.start;
      const before = this.keys[i] as KeySet;
      if (before === 'all' || keys === 'all') this.keys[i] = 'all';
      else if (this.madeKeys[i]) {
        const into = before as Set<string>;
        keys.forEach((key) => {
          into.add(key);
        });
      } else {
        this.keys[i] = unionKeys(before, keys);
        this.madeKeys[i] = true;
      }
      return;
    }
    this.at[id] = this.gathered++;
    this.reads.sources[id] = produced.sources[k] as SecretSource;
    this.ids[this.count] = id;
    this.keys[this.count] = keys;
    this.madeKeys[this.count] = false;
    this.count++;
  }

  /** What the template reads, if anything. */
  done(): Consumed | undefined {
    if (this.count === 0) return undefined;
    const { reads } = this;
    reads.reserve(this.count);
    for (let i = 0; i < this.count; i++) reads.add(this.ids[i] as number, this.keys[i] as KeySet);
    return new Consumed(reads, this.count);
  }

  /** Each source read, with the resources that read it in input order, in the order first read. */
  consumersOf(resources: readonly Resource[]): Map<SecretSource, readonly Resource[]> {
    // Indexed by source number; pushed, not `new Array(numbered)`: a long one is made in
    // dictionary mode.
    const lists: (Resource[] | undefined)[] = [];
    for (let id = 0; id < this.numbered; id++) lists.push(undefined);
    const consumersOf = new Map<SecretSource, readonly Resource[]>();
    for (let i = 0; i < this.firstIds.length; i++) {
      const id = this.firstIds[i] as number;
      const list = new Array<Resource>(this.readerCount[id] as number);
      lists[id] = list;
      consumersOf.set(this.firstRead[i] as SecretSource, list);
    }
    // Filled in the order read, which is input order within each list.
    const filled = this.readerCount.fill(0);
    this.readPairs.forEach((pairs, length) => {
      for (let r = 0; r < length; r += 2) {
        const id = pairs[r] as number;
        const list = lists[id] as Resource[];
        list[(filled[id] as number)++] = resources[pairs[r + 1] as number] as Resource;
      }
    });
    return consumersOf;
  }
}

/** The info for a consumer opted out at `metadata` (the workload's or a pod template's). */
function optedOutResult(resource: Resource, consumed: Consumed, metadata: Keys): Result {
  const names = listNames(consumed.sources);
  const message = `opted out (${optOutKey}: "true"): no checksum set, though it reads ${names}; they are still ordered before it`;
  const field = { path: annotationField(metadata, optOutKey) };
  return resourceResult(optedOutRule, resource, message, field);
}

/** A HelmRelease's pods (helm-release.ts): what it reads, noted, and where its checksum goes. */
function helmConsumer(
  resource: Resource,
  producers: Producers,
  config: Config,
  gather: Gather,
  position: number,
  results: Result[],
): ConsumingTemplate | undefined {
  gather.next();
  // Charts read one Secret in many env entries and in init containers (four times in a real
  // zigbee2mqtt release).
  const noted = new FirstPlaces<{ field: string; text: string; substituted: Set<string> }>();
  for (const read of helmReads(resource)) {
    const produced = producers.producedIn(read.kind, read.namespace)?.get(read.name);
    if (!produced) continue;
    const { sources } = produced;
    for (let k = 0; k < sources.length; k++) {
      gather.readBy(produced, k, position);
      gather.add(produced, k, read.keys);
    }
    const key = `${read.kind}\u0000${read.namespace ?? ''}\u0000${read.name}`;
    const note =
      noted.again(key) ??
      noted.add(key, {
        field: read.field,
        text: `its release reads ${read.kind} ${read.name} of ${listNames(sources)}`,
        substituted: new Set<string>(),
      });
    for (const builtIn of read.substituted) note.substituted.add(builtIn);
  }
  noted.forEach(({ field, text, substituted }, at) => {
    const via = substituted.size > 0 ? ` (${[...substituted].join(', ')} substituted)` : '';
    const places = at > 1 ? ` at ${at} places, the first named here` : '';
    results.push(
      resourceResult(helmReleaseRead, resource, `${text}${via}${places}`, { path: field }),
    );
  });
  const consumed = gather.done();
  if (consumed === undefined) return undefined;
  if (optedOut(resource.annotations, ['metadata'])) {
    results.push(optedOutResult(resource, consumed, ['metadata']));
    return undefined;
  }
  const valuesPath = checksumPathFor(resource, config.helmReleaseChecksumPath);
  if (valuesPath) {
    const annotations = ['spec', 'values', ...valuesPath];
    // The edit creates missing mappings on the way but writes into no other value: name it.
    for (let depth = 2; depth < annotations.length; depth++) {
      const on = annotations.slice(0, depth);
      const node = getPath(resource.value, on);
      if (node !== undefined && node !== null && !isObject(node)) {
        throw new ItemError(
          `${fieldPath(on)} is ${describeType(node)}, not a mapping`,
          fieldPath(on),
        );
      }
    }
    const shape = { podSpec: [], metadata: annotations.slice(0, -1), annotations };
    const current = readAnnotations(getPath(resource.value, annotations), printed(annotations));
    // Our post-renderer entry from before the option: Flux applies it after the chart, so a stale
    // one would hold the pods' annotation at its old checksum, over the values'. Kept updated to
    // the same checksums (the pods get that value either way), and a warning says to remove it.
    const leftover = ourEntry(resource);
    if (!leftover) return { resource, shape, consumed, current };
    const message =
      "its checksum is at the values path helmReleaseChecksumPath names, and secret-rollout's post-renderer entry from before is still there: it is kept updated to the same checksum (Flux applies it after the chart, and a stale one would keep the pods' annotation at its old value); remove the entry";
    const field = { path: fieldPath(['spec', 'postRenderers', leftover.index]) };
    results.push(resourceResult(postRendererLeftover, resource, message, field));
    return { resource, shape, consumed, current, leftover };
  }
  const shape = { podSpec: [], metadata: [], annotations: postRenderersPath };
  const postRenderer = ourEntry(resource) ?? null;
  return { resource, shape, consumed, current: noAnnotations, postRenderer };
}

const postRenderersPath = ['spec', 'postRenderers'];
