// How the reports (plan --format json, impact) name a resource: the fields of a KRM resourceRef,
// in the order the JSON documents and their schema show them.
import type { Resource } from '../model/resource.js';

/** A resource as KRM results name it (the JSON's and the schema's `ref`). */
export interface Ref {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

export const jsonRef = (r: Resource): Ref => ({
  apiVersion: r.apiVersion,
  kind: r.kind,
  ...(r.namespace === undefined ? {} : { namespace: r.namespace }),
  name: r.name,
});

/** `Kind namespace/name` of a ref. */
export const describeRef = (r: Ref) =>
  `${r.kind} ${r.namespace === undefined ? '' : `${r.namespace}/`}${r.name}`;
