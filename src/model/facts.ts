// The references of pod templates read as facts (docs/design/facts-reader.md): what each names
// and where it is, kept in columns for the whole run instead of the PodSpec trees they were read
// from. A tree keeps ≈110 bytes a reference (its wrappers and the reference's mapping), the
// columns ≈23: on the fan-in bench (20 references a pod) the trees were 17.6 of the 30.8 MB
// live after reading. The rules make them (the read plan's `facts`) and read them
// (rules/workloads/references.ts); the reader only calls what the plan hands it.
import type { JsonObject } from './json.js';
import type { Keys } from './path.js';

/** The keys a reference reads: one (`secretKeyRef.key`), an `items[].key` list, or all (undefined). */
export type FactKeys = string | readonly string[] | undefined;

/**
 * The references of pod templates read in a run, one row each: a chunk of the run's, never a
 * module's (impact keeps BASE's facts while it reads HEAD). A template's rows are in one chunk;
 * a chunk is never copied: past it the writer starts another, twice as large up to `chunkRows`,
 * with the same `texts`. Columns grown by copies left each copy to the next full collection
 * (off the heap, but counted by V8 with it: 5 MB more on the fan-in bench at 10k items, whose
 * weight brought the rules' mark-compact forward, before the checksums, so that what they and
 * the wave plan left stayed to the peak). Rows past `count` are written over.
 */
export interface RefColumns {
  /** The reference table's row (references.ts secretReferences): kind, name field, opt-in. */
  row: Int32Array;
  /**
   * The positions of the row's path's `[]` steps, in order (at most two in the table: container
   * and env entry, volume and projected source); -1 where the path has fewer.
   */
  first: Int32Array;
  second: Int32Array;
  /**
   * What it names and the keys it reads (-1: all), as numbers of `texts`: lists of strings were
   * two slots a reference on the heap, grown by half again as they filled (2.7 MB of the fan-in
   * bench's 158k references at 10k, and the lists they grew from, garbage until a full
   * collection), where a reference's few texts repeat (its Secret's name, a key).
   */
  name: Int32Array;
  keys: Int32Array;
  /** The names and keys read, each text once (the reader's strings, shared), each list its own. */
  texts: (string | readonly string[])[];
  count: number;
}

/**
 * Columns being written, and the number in their `texts` of each text there: a look-up needed
 * only while the items are read, so the writer's (the read plan's extractor, which dies with the
 * plan once the reader is done), not the columns' (fan-in's 9,897 texts at 10k items: a Map of
 * ≈0.45 MB, kept to the end of the run while the columns held it).
 */
export interface FactsWriter {
  columns: RefColumns;
  textIds: Map<string, number>;
}

export function newWriter(): FactsWriter {
  return { columns: chunk(1024, []), textIds: new Map() };
}

/** A chunk's rows at most, unless one template has more: a large input leaves ≤ 1.3 MB unused. */
const chunkRows = 65536;

function chunk(size: number, texts: (string | readonly string[])[]): RefColumns {
  return {
    row: new Int32Array(size),
    first: new Int32Array(size),
    second: new Int32Array(size),
    name: new Int32Array(size),
    keys: new Int32Array(size),
    texts,
    count: 0,
  };
}

/**
 * Room for `count` more rows together (a template's), in the writer's present chunk or a new one;
 * returns where the first of them goes in `writer.columns`.
 */
export function reserveFacts(writer: FactsWriter, count: number): number {
  const { columns } = writer;
  if (columns.count + count > columns.row.length) {
    const size = Math.max(count, Math.min(2 * columns.row.length, chunkRows));
    writer.columns = chunk(size, columns.texts);
  }
  return writer.columns.count;
}

/** The name the reference in row `i` names. */
export const nameIn = (columns: RefColumns, i: number): string =>
  columns.texts[columns.name[i] as number] as string;

/** The keys the reference in row `i` reads. */
export function keysIn(columns: RefColumns, i: number): FactKeys {
  const id = columns.keys[i] as number;
  return id < 0 ? undefined : columns.texts[id];
}

/** Adds a reference as the last row of the writer's columns, in the room `reserveFacts` made. */
export function addFact(
  writer: FactsWriter,
  row: number,
  first: number,
  second: number,
  name: string,
  keys: FactKeys,
): void {
  const { columns } = writer;
  const at = columns.count;
  // A typed array drops a write past its end in silence.
  if (at === columns.row.length) throw new Error('facts: a row added past the room reserved');
  columns.row[at] = row;
  columns.first[at] = first;
  columns.second[at] = second;
  columns.name[at] = textId(writer, name);
  columns.keys[at] = keys === undefined ? -1 : textId(writer, keys);
  columns.count = at + 1;
}

/** The number of `text` in the columns' texts, added if new; a list is added each time. */
function textId(writer: FactsWriter, text: string | readonly string[]): number {
  const { textIds } = writer;
  const { texts } = writer.columns;
  if (typeof text !== 'string') return texts.push(text) - 1;
  let id = textIds.get(text);
  if (id === undefined) {
    id = texts.push(text) - 1;
    textIds.set(text, id);
  }
  return id;
}

/**
 * A pod template's references: rows [start, end) of the run's columns, in the order secretUses
 * gives them (the table's rows, then document order). A class, so that a PodSpec read as a tree
 * (a JSON mapping, which may hold any keys) is never taken for one.
 */
export class TemplateFacts {
  constructor(
    readonly columns: RefColumns,
    /** Where the PodSpec was: its shape's path (workloads/shapes.ts), the object itself. */
    readonly at: Keys,
    readonly start: number,
    readonly end: number,
  ) {}

  /** Whether these are the facts of the PodSpec at `path` (by its steps, not only its object). */
  isAt(path: Keys): boolean {
    const { at } = this;
    if (path === at) return true;
    if (path.length !== at.length) return false;
    for (let k = 0; k < at.length; k++) if (path[k] !== at[k]) return false;
    return true;
  }
}

/**
 * The facts of a resource's pod templates: the one template's, as most workloads have (a list of
 * one was 56 bytes more for each of the fan-in bench's 7,929 workloads), or a list of them.
 */
export type ResourceFacts = TemplateFacts | readonly TemplateFacts[];

/** How many templates `facts` holds. */
export const templateCount = (facts: ResourceFacts): number =>
  facts instanceof TemplateFacts ? 1 : facts.length;

/** The `t`-th template of `facts`. */
export const templateOf = (facts: ResourceFacts, t: number): TemplateFacts =>
  facts instanceof TemplateFacts ? facts : (facts[t] as TemplateFacts);

/** A PodSpec as the rules read it: its tree, or the facts read from it. */
export type PodSpecRead = JsonObject | TemplateFacts;

/**
 * The facts of an item's pod templates, its PodSpecs then taken out of `value`; undefined when it
 * has none or keeps its trees (a PodSpec a fact cannot say: the rules walk it as before).
 */
export type FactsOf = (
  value: JsonObject,
  apiVersion: string,
  kind: string,
) => ResourceFacts | undefined;
