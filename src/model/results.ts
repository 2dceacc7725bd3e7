// Structured results per the KRM Functions Specification (severity is always written explicitly,
// because the spec defaults to `error` while kpt displays a missing severity as `info`). Every
// result names the rule that made it in `tags.rule` (kyaml's Result keeps `tags`, a string map,
// for tools): a stable kebab-case id, which the options set a severity for, the
// `secret-rollout/silence` annotation silences, and SARIF names as its ruleId.
import { ItemError, type Resource } from './resource.js';

export type Severity = 'error' | 'warning' | 'info';
export const severities: readonly Severity[] = ['error', 'warning', 'info'];
/** A rule's severity as the options set it: `off` reports nothing. */
export type RuleSeverity = Severity | 'off';

/**
 * A kind of result. Declared where it is made (a lint in its module, the other rules in
 * model/result-rules.ts) and listed in one table, rules/rule-table.ts, which the options, SARIF
 * and the docs read. model/ only knows the shape: the table lives above it.
 */
/** Why a fixed rule (Rule.fixed) can be neither set nor silenced, as the messages saying so word it. */
export const fixedReason =
  "what the run cannot read, follow, prove or make, or a check's finding: lowering it would hide a failure";

export interface Rule {
  /** Stable, kebab-case: what users write in options and annotations. */
  readonly id: string;
  /** The severity when no option sets one. */
  readonly severity: Severity;
  /**
   * Neither the options nor an annotation can change it: input the run cannot read, options it
   * cannot follow, edits it cannot prove, plans that cannot be made. Lowering one would hide a
   * failure, or let the run write what it never checked.
   */
  readonly fixed?: true;
  /** One line: SARIF's shortDescription and the docs' table. */
  readonly summary: string;
  /** What to do about it: SARIF's fullDescription (the summary when absent). */
  readonly help?: string;
}

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface Result {
  message: string;
  severity: Severity;
  /** `rule`: the id of the rule that made it (one object per rule, shared by its results). */
  tags: { readonly rule: string };
  resourceRef?: ResourceRef;
  field?: { path: string; currentValue?: string; proposedValue?: string };
  file?: { path: string; index?: number };
}

/** One tags object per rule: thousands of results share a few. */
const tagsOf = new WeakMap<Rule, Result['tags']>();
function tags(rule: Rule): Result['tags'] {
  let found = tagsOf.get(rule);
  if (found === undefined) {
    found = Object.freeze({ rule: rule.id });
    tagsOf.set(rule, found);
  }
  return found;
}

/** A result about no one resource (the input, the options, the run): severity first, as before. */
export function plainResult(rule: Rule, message: string, field?: Result['field']): Result {
  const result: Result = { severity: rule.severity, message, tags: tags(rule) };
  if (field) result.field = field;
  return result;
}

/** An item's error reported under a rule of its own, not as a malformed field: a budget passed. */
export class RuledItemError extends ItemError {
  constructor(
    message: string,
    readonly rule: Rule,
  ) {
    super(message);
  }
}

/**
 * A result about one resource: fills `resourceRef` and `file` from the resource. `severity`:
 * a lint's, as the options set it; else the rule's own.
 */
export function resourceResult(
  rule: Rule,
  resource: Resource,
  message: string,
  field?: Result['field'],
  severity: Severity = rule.severity,
): Result {
  const result: Result = { message, severity, tags: tags(rule) };
  // The spec requires a name in resourceRef; a nameless item is still found by its file.
  if (resource.name !== '') result.resourceRef = refOf(resource);
  if (field) result.field = field;
  if (resource.file) result.file = resource.file;
  return result;
}

/** What a deferred info result works out when it is reported: its message and field. */
type Worked = { message: string; field?: Result['field'] };
/**
 * A function that works it out, or a record that does (`details()`): a record the caller keeps
 * anyway (a checksum) needs no closure and context of its own per result (≈150 bytes each, one
 * per checksum: 1.2 MB on the fan-in bench).
 */
type Details = (() => Worked) | { details(): Worked };

/**
 * A result made by deferredInfo. What it works out later is kept in private fields, which no walk
 * of its keys sees (results-yaml's for-in, JSON, comparisons in tests); its own keys are a
 * Result's, in resourceResult's order. A class, not a WeakMap from results to closures: an entry
 * and a closure per result took ≈2–3× the CPU to make (one per checksum and wave: ≈10k at 10k
 * items), and a WeakMap's entries are ephemerons the collector walks again.
 */
class DeferredResult implements Result {
  declare message: string;
  declare severity: Severity;
  declare tags: Result['tags'];
  declare resourceRef?: ResourceRef;
  declare field?: Result['field'];
  declare file?: Result['file'];
  #details: Details | undefined;
  // Its resource, not its ref: a ref is made when it is reported (a run reports 200 of ≈10k on
  // the fan-in bench, whose refs survived to the peak: ≈1.1 MB). Until then settle and sortByItem
  // read the resource (subjectOf).
  readonly #resource: Resource;

  constructor(rule: Rule, resource: Resource, details: Details) {
    this.message = '';
    this.severity = rule.severity;
    this.tags = tags(rule);
    this.#details = details;
    this.#resource = resource;
  }

  get subject(): Resource | undefined {
    return this.#resource.name === '' ? undefined : this.#resource;
  }

  /** Works out the message, ref and field, once (the keys in resourceResult's order). */
  fill(): void {
    const details = this.#details;
    if (details === undefined) return;
    this.#details = undefined;
    const { message, field } = typeof details === 'function' ? details() : details.details();
    const resource = this.#resource;
    this.message = message;
    if (resource.name !== '') this.resourceRef = refOf(resource);
    if (field) this.field = field;
    if (resource.file) this.file = resource.file;
  }
}

/**
 * The resource a result is about, as its ref or (a deferred result not yet complete) the
 * resource itself, for what compares results by resource before they are reported: both have
 * the apiVersion, kind, name and namespace. Undefined where the result has no resourceRef.
 */
export const subjectOf = (result: Result): ResourceRef | Resource | undefined =>
  result instanceof DeferredResult && result.resourceRef === undefined
    ? result.subject
    : result.resourceRef;

/**
 * An info result whose message and field are worked out only if it is reported: planning makes
 * one per checksum and per wave, run() reports the first 200 (complete). The keys come in the
 * order resourceResult gives them.
 */
export function deferredInfo(rule: Rule, resource: Resource, details: Details): Result {
  return new DeferredResult(rule, resource, details);
}

/** The result with its deferred details worked out (see deferredInfo). */
export function complete(result: Result): Result {
  if (result instanceof DeferredResult) result.fill();
  return result;
}

/**
 * A finding that names a group which can grow, shrink or reword (one warning for thirty
 * ExternalSecrets on one store): what it is about, as a key its lint gives, and the resources it
 * names. `impact` compares findings by these, not by their message. Kept beside the result, so
 * that the results written stay as they are.
 */
export interface Grouped {
  key: string;
  members: readonly ResourceRef[];
}
/**
 * The resources themselves, their refs made when `impact` asks: a ref per member (thousands of
 * ExternalSecrets on a few stores) and its entry in `refs` outlived a scavenge to the peak of a
 * run, which never asks (≈0.3 MB on the fan-in bench).
 */
const groups = new WeakMap<Result, { key: string; members: readonly Resource[] }>();

/** `members`: a list the caller no longer changes. */
export function setGrouped(result: Result, key: string, members: readonly Resource[]): void {
  groups.set(result, { key, members });
}

export function groupedOf(result: Result): Grouped | undefined {
  const grouped = groups.get(result);
  return grouped && { key: grouped.key, members: grouped.members.map(refOf) };
}

/** One ref per resource, shared by its results (nothing changes a ref once made). */
const refs = new WeakMap<Resource, ResourceRef>();

export function refOf(resource: Resource): ResourceRef {
  let ref = refs.get(resource);
  if (ref === undefined) {
    const { apiVersion, kind, name, namespace } = resource;
    // One literal each way: a key added after the literal went to a store of its own (40 bytes
    // more for each of fan-in's 10k refs).
    ref =
      namespace === undefined ? { apiVersion, kind, name } : { apiVersion, kind, name, namespace };
    refs.set(resource, ref);
  }
  return ref;
}

/**
 * `Kind namespace/name`, the way users search for a resource in their repo: a Resource's, a
 * result's ResourceRef, or a raw item's (an error about an item that is no Resource).
 */
export function describe(resource: {
  kind: string;
  namespace?: string | undefined;
  name?: string | undefined;
}): string {
  const ns = resource.namespace === undefined ? '' : `${resource.namespace}/`;
  return `${resource.kind} ${ns}${resource.name}`;
}

export function hasErrors(results: readonly Result[]): boolean {
  return results.some((r) => r.severity === 'error');
}

/**
 * Control characters as their escape (`\n`, `\u0007`): a line break in a name would end a line of
 * stderr (and could start a forged `error:` line), a table row or a list item; the others are
 * invisible.
 */
export const visible = (text: string) =>
  text.replace(/[\p{Cc}\u2028\u2029]/gu, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * One readable line, for stderr in stream mode; the rule id last, in parentheses. Names and
 * kinds come from the input: their control characters are shown as escapes.
 */
export function formatResult(result: Result): string {
  const where: string[] = [];
  if (result.resourceRef) {
    const { kind, name, namespace } = result.resourceRef;
    where.push(`${kind} ${namespace === undefined ? '' : `${namespace}/`}${name}`);
  }
  if (result.field) where.push(result.field.path);
  if (result.file) where.push(result.file.path);
  const location = where.length > 0 ? ` [${where.join(' ')}]` : '';
  return visible(`${result.severity}: ${result.message}${location} (${result.tags.rule})`);
}
