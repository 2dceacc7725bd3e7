// The planned edits applied to each item's text, each proven: the edited text must read as the
// item's value with the edits applied (a key set, an entry appended to a list and nothing else),
// and, where items alias each other's anchors, every other item of the document as before. An
// edit that fails its proof is refused with an error result; every other byte is copied as it
// came (write.ts).

import { type Edit, isListEntryEdit, listField } from '../model/edit.js';
import { isObject, type Json } from '../model/json.js';
import { getPath } from '../model/path.js';
import type { Resource } from '../model/resource.js';
import { editRefused } from '../model/result-rules.js';
import { plainResult, type Result } from '../model/results.js';
import { type Input, parseItem, wholeDocument } from './read.js';
import { lineBreakOf } from './yaml/lines.js';
import { whereIs } from './yaml/locate-cst.js';
import { located } from './yaml/parse.js';
import { cachedFrom, ScalarCache } from './yaml/quick-parse.js';
import type { ItemSpan, Span } from './yaml/spans.js';
import {
  applySplices,
  applyToValue,
  EditError,
  editText,
  reparseItem,
  type Splice,
  sameValue,
  sortedCopy,
  tooDeep,
  withEdit,
} from './yaml/splice.js';

/** An item's edits as applied to its text (`splices`), and the value it must then read as. */
interface Applied {
  span: ItemSpan;
  text: string;
  edits: readonly Edit[];
  splices: Splice[];
  expected: () => Json;
}

/** Edited text per item; a failed proof becomes an error result. */
export function applyEdits(
  input: Input,
  resources: readonly Resource[],
  edits: readonly Edit[],
  results: Result[],
  aliased: ReadonlySet<number>,
  projected: ReadonlySet<number>,
): Map<number, Splice[]> {
  // By item index, in a list: no hashing per edit and per look-up. Index loops and forEach, not
  // for-of, over the edits and the items here: for-of made an iterator result per step in this
  // one long-running call (≈1 MB on 10k items).
  const byItem: (Edit[] | undefined)[] = new Array(input.items.length);
  let editedItems = 0;
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i] as Edit;
    const group = byItem[edit.item];
    if (group) group.push(edit);
    else {
      byItem[edit.item] = [edit];
      editedItems++;
    }
  }
  const lineBreak = lineBreakOf(input.text);
  // Other items alias anchors in this document: an edit inside an anchored node would change
  // them too (even the sources a checksum is computed from), and an item that aliases another
  // item's anchor only parses within its document. Both are proven in the document.
  const inDocument = aliased.size > 0 && input.format === 'yaml-list' ? input : undefined;
  // Kept whole only for the proof in the document: elsewhere each item's proof is done once its
  // splices are made, and its expected value (a whole re-read when projected) dies young rather
  // than living, promoted, until every item is edited (≈3 MiB of peak RSS on 10k items).
  const applied = new Map<number, Applied>();
  const proven = new Map<number, Splice[]>();
  const refused = new Map<number, string>();
  const shared = new Expected(input, projected);
  const texts = new Map<string, string>();
  let cache: ScalarCache | undefined;
  // As the reader's (items.ts): its tables pay off across many edited items, not a few.
  const proofs =
    editedItems >= cachedFrom
      ? () => {
          cache ??= new ScalarCache();
          return cache;
        }
      : undefined;
  resources.forEach((resource) => {
    const itemEdits = byItem[resource.index];
    if (!itemEdits) return;
    const span = input.items[resource.index]?.span;
    if (!span) {
      // JSON: the value itself is the output, edited below once no edit is refused.
      const refusal = itemEdits
        .map((edit) => tooDeep(edit) ?? notAList(resource.value, edit))
        .find(Boolean);
      if (refusal) refused.set(resource.index, refusal);
      return;
    }
    const text = input.text.slice(span.start, span.end);
    // Proven in the document below: the item keeps its own. Elsewhere its proof is done within
    // editText, and one serves every item in turn (no closure and context per item, ≈1.5 MB
    // on 10k items).
    const expected = inDocument ? new Expected(input, projected) : shared;
    expected.reset(resource, span, text, itemEdits);
    // Proven below with every other item's edits: one re-read of the document for them all.
    const later = inDocument && aliased.has(resource.index) ? 'later' : undefined;
    try {
      const splices = editText(text, span.entry, itemEdits, expected.get, lineBreak, later, proofs);
      if (inDocument)
        applied.set(resource.index, {
          span,
          text,
          edits: itemEdits,
          splices,
          expected: expected.get,
        });
      else proven.set(resource.index, shareTexts(splices, texts));
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      refused.set(resource.index, where(error, text, span.start, input.text));
    }
  });
  // A JSON input is written from its value: edited only when nothing is refused, as a YAML input
  // whose edits are refused is written as it came.
  if (refused.size === 0 && input.format.startsWith('json')) {
    for (const resource of resources) {
      for (const edit of byItem[resource.index] ?? []) applyToValue(resource.value, edit);
    }
  }
  if (inDocument) {
    /** Proves an edit on its own, as every edit was before: its own error if it fails. */
    const alone = (index: number, one: Applied) => {
      try {
        if (aliased.has(index)) {
          const reparse = (edited: string) =>
            reparsedItems(inDocument, [{ span: one.span, text: edited }])?.[index];
          const { text, span, edits } = one;
          one.splices = editText(text, span.entry, edits, one.expected, lineBreak, reparse);
        }
        if (!provenInDocument(inDocument, new Map([[index, one]]), false)) {
          // An appended entry's list is named, with where it is.
          const append = one.edits.find(isListEntryEdit);
          throw new EditError(
            `the edit${append ? ` of ${listField(append)}` : ''} is inside a YAML anchor that other items alias: it would change them too`,
            append && whereIs(one.text, one.span.entry, append.path, append.key),
          );
        }
      } catch (error) {
        if (!(error instanceof EditError)) throw error;
        refused.set(index, where(error, one.text, one.span.start, input.text));
      }
    };
    // All edits at once, one re-read; where that fails, each half the same way, down to single
    // edits proven on their own as every edit was before (so a refused edit gets its own error).
    // Edits proven together need no proof alone: with all of them in place, each edited item
    // reads as expected and every other item as before. A few failing edits among n cost a few
    // log2(n) re-reads, not n.
    const settle = (group: readonly [number, Applied][]): void => {
      if (group.length === 0 || provenInDocument(inDocument, new Map(group), true)) return;
      const [first] = group;
      if (group.length === 1 && first) {
        alone(first[0], first[1]);
        return;
      }
      const half = Math.ceil(group.length / 2);
      settle(group.slice(0, half));
      settle(group.slice(half));
    };
    settle([...applied]);
  }
  // Nothing refused and nothing proven in the document: every item's splices are proven's, in the
  // items' order, with no result to add; no second map of them.
  if (refused.size === 0 && applied.size === 0) return proven;
  const edited = new Map<number, Splice[]>();
  for (const resource of resources) {
    const message = refused.get(resource.index);
    const splices = applied.get(resource.index)?.splices ?? proven.get(resource.index);
    if (message !== undefined) {
      results.push(
        plainResult(
          editRefused,
          `${input.items[resource.index]?.where ?? `item ${resource.index}`} (${resource.kind} ${resource.name}): ${message}`,
        ),
      );
    } else if (splices) edited.set(resource.index, splices);
  }
  return edited;
}

/**
 * An item's value with its edits applied, made when a proof first asks for it (`get`), then
 * kept: the comparison a proof makes.
 */
class Expected {
  // Set by reset before every use.
  private resource!: Resource;
  private span!: ItemSpan;
  private text = '';
  private edits: readonly Edit[] = [];
  private value: Json | undefined;

  constructor(
    private readonly input: Input,
    private readonly projected: ReadonlySet<number>,
  ) {}

  /** Now for this item (nothing kept of the one before). */
  reset(resource: Resource, span: ItemSpan, text: string, edits: readonly Edit[]): void {
    this.resource = resource;
    this.span = span;
    this.text = text;
    this.edits = edits;
    this.value = undefined;
  }

  readonly get = (): Json => {
    if (this.value !== undefined) return this.value;
    const { resource, span, text, input } = this;
    // A projected value lacks what the rules do not read: the proof needs all of it.
    const whole = this.projected.has(resource.index) ? parseItem(input.text, span) : undefined;
    let value: Json = resource.value;
    if (whole) value = 'value' in whole ? whole.value : null;
    // A parsed alias is the anchored object itself: an edit applied there would also appear
    // wherever it is aliased, and the proof would accept an edit that changes those places
    // (an entry appended to a list another key aliases). So in a whole re-read value too: a
    // copy shares no objects (its sorted keys do not matter to the proof's comparison).
    if (/[&*]/.test(text)) value = sortedCopy(value);
    if (isObject(value)) {
      // The rules' value is not changed: each edit copies its path (withEdit), as a copy shares
      // the rest with it. A value made here (a re-read, a sorted copy) is changed in place.
      const own = value !== resource.value;
      for (const edit of this.edits) {
        if (own) applyToValue(value, edit);
        else value = withEdit(value, edit);
      }
    }
    this.value = value;
    return value;
  };
}

/** A refusal's message, with the line and column in the input where it has an offset. */
function where(error: EditError, text: string, spanStart: number, input: string): string {
  const { message, offset } = error;
  return offset === undefined ? message : located(message, text, offset, spanStart, input);
}

/**
 * Whether the document with the applied edits in place reads as before but for them: every
 * other item unchanged and, with `own`, each edited item as expected.
 */
function provenInDocument(
  input: Input & { format: 'yaml-list' },
  applied: ReadonlyMap<number, Applied>,
  own: boolean,
): boolean {
  const before = getPath(wholeDocument(input.text, input.document), ['items']);
  const changes = [...applied.values()].map((a) => ({
    span: a.span,
    text: applySplices(a.text, a.splices),
  }));
  const after = reparsedItems(input, changes);
  if (!Array.isArray(before) || !after || before.length !== after.length) return false;
  return before.every((item, i) => {
    const one = applied.get(i);
    if (!one) return sameValue(item, after[i] ?? null);
    return !own || sameValue(after[i] ?? null, one.expected());
  });
}

/** The items of the document with each change's text in place of its span, read again. */
function reparsedItems(
  input: Input & { format: 'yaml-list' },
  changes: readonly { span: Span; text: string }[],
): Json[] | undefined {
  const { document } = input;
  const splices = changes.map(({ span, text }) => ({
    start: span.start - document.start,
    end: span.end - document.start,
    text,
  }));
  const edited = applySplices(input.text.slice(document.start, document.end), splices);
  const items = getPath(reparseItem(edited, false), ['items']);
  return Array.isArray(items) ? items : undefined;
}

/**
 * Why an entry cannot be appended in a JSON input's value (its list, or a mapping on the way, is
 * some other value), or undefined: JSON values have no text to prove an edit against.
 */
function notAList(value: Json, edit: Edit): string | undefined {
  if (!isListEntryEdit(edit)) return undefined;
  const refusal = `could not append the entry to ${listField(edit)}: it holds no list`;
  const trail = [...edit.path, edit.key];
  for (let depth = 1; depth <= trail.length; depth++) {
    const node = getPath(value, trail.slice(0, depth));
    // Missing or null: created, a mapping or the list, but never a list entry.
    if (node === undefined || node === null) {
      return trail.slice(depth - 1).some((step) => typeof step === 'number') ? refusal : undefined;
    }
    const list = depth === trail.length || typeof trail[depth] === 'number';
    if (list ? !Array.isArray(node) : !isObject(node)) return refusal;
  }
  return undefined;
}

/**
 * The splices, each long text replaced by the one equal text met before, if any (`texts`, per
 * run): all are kept until written, and thousands of HelmReleases reading one Secret are given
 * one post-renderer entry (helm-releases 8 MB: 42k × 2 KB). Short texts are not looked up (an
 * annotation's line: a hash of it would cost about what it holds), nor texts past V8's longest
 * hashed string (16 Ki characters), whose hash is their length: those of one length would all
 * be compared with each other.
 */
function shareTexts(splices: Splice[], texts: Map<string, string>): Splice[] {
  for (let i = 0; i < splices.length; i++) {
    const splice = splices[i] as Splice;
    if (splice.text.length < 256 || splice.text.length > 16_383) continue;
    const same = texts.get(splice.text);
    if (same === undefined) texts.set(splice.text, splice.text);
    else splice.text = same;
  }
  return splices;
}
