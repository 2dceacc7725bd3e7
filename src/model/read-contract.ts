// The read plan: what the reader builds of each item. The rules decide it (rules/read-plan.ts:
// from the source table, the lints' declared reads, the pod-template shapes and the options) and
// the reader (krm/items.ts) follows it as data, so the reader knows no kinds.
import type { FactsOf } from './facts.js';
import type { Bystander, Projection, Resource } from './resource.js';

/** Whether an item whose identity was read may stay a bystander, by its name. */
export type PassesByName = (name: string | undefined) => boolean;

export interface ReadPlan {
  /**
   * Items of this kind may be copied through unparsed, known by identity only (a Bystander) and
   * still checked for valid YAML, where the name test agrees; undefined: every item of this kind
   * is parsed. Asked from the kind and apiVersion on the item's own lines, before its identity is
   * read, so most items cost no more than that look.
   */
  passesThrough(apiVersion: string, kind: string): PassesByName | undefined;
  /**
   * What to build of a parsed item: all of it (`true`), or the fields the rules read. Undefined
   * apiVersion or kind: not found on the item's lines.
   */
  projection(apiVersion: string | undefined, kind: string | undefined): Projection;
  /**
   * The second pass. Whether a bystander is read is decided before the sources are known, but
   * sources may read items by name (ESO templateFrom reads ConfigMaps and Secrets): `candidate`
   * says which bystanders the reader keeps aside, `wanted` (asked once, after the first pass,
   * only when there are candidates) which of them the resources read, and the reader builds them.
   */
  later: {
    candidate(bystander: Bystander): boolean;
    wanted(resources: readonly Resource[]): (bystander: Bystander) => boolean;
  };
  /**
   * The namespace a namespace-less namespaced item lives in (option defaultNamespace), given to
   * each Resource and Bystander as it is read (model/scope.ts), so that every rule sees it.
   */
  defaultNamespace: string | undefined;
  /**
   * The references of a projected item's pod templates as facts (model/facts.ts), asked right
   * after the item is built, so that its PodSpecs die young. Never asked of an item read whole or
   * of JSON input: the writer's proof and JSON output read their values.
   */
  facts?: FactsOf;
}
