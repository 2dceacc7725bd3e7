// Structured results per the KRM Functions Specification (severity is always written explicitly,
// because the spec defaults to `error` while kpt displays a missing severity as `info`).
import type { Resource } from './resource.js';

export type Severity = 'error' | 'warning' | 'info';
export const severities: readonly Severity[] = ['error', 'warning', 'info'];

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface Result {
  message: string;
  severity: Severity;
  resourceRef?: ResourceRef;
  field?: { path: string; currentValue?: string; proposedValue?: string };
  file?: { path: string; index?: number };
}

/** A result about one resource: fills `resourceRef` and `file` from the resource. */
export function resourceResult(
  resource: Resource,
  severity: Severity,
  message: string,
  field?: Result['field'],
): Result {
  const result: Result = { message, severity };
  // The spec requires a name in resourceRef; a nameless item is still found by its file.
  if (resource.name !== '') result.resourceRef = refOf(resource);
  if (field) result.field = field;
  if (resource.file) result.file = resource.file;
  return result;
}

/** The details of deferred info results still to work out (see deferredInfo). */
const pending = new WeakMap<Result, () => void>();

/**
 * An info result whose message and field are worked out only if it is reported: planning makes
 * one per checksum and per wave, run() reports the first 200 (complete). The keys come in the
 * order resourceResult gives them.
 */
export function deferredInfo(
  resource: Resource,
  details: () => { message: string; field?: Result['field'] },
): Result {
  const result: Result = { message: '', severity: 'info' };
  if (resource.name !== '') result.resourceRef = refOf(resource);
  pending.set(result, () => {
    const { message, field } = details();
    result.message = message;
    if (field) result.field = field;
    if (resource.file) result.file = resource.file;
  });
  return result;
}

/** The result with its deferred details worked out (see deferredInfo). */
export function complete(result: Result): Result {
  const fill = pending.get(result);
  if (fill) {
    pending.delete(result);
    fill();
  }
  return result;
}

/** One ref per resource, shared by its results (nothing changes a ref once made). */
const refs = new WeakMap<Resource, ResourceRef>();

export function refOf(resource: Resource): ResourceRef {
  let ref = refs.get(resource);
  if (ref === undefined) {
    ref = { apiVersion: resource.apiVersion, kind: resource.kind, name: resource.name };
    if (resource.namespace !== undefined) ref.namespace = resource.namespace;
    refs.set(resource, ref);
  }
  return ref;
}

/** `Kind namespace/name`, the way users search for a resource in their repo. */
export function describe(resource: Resource): string {
  const ns = resource.namespace === undefined ? '' : `${resource.namespace}/`;
  return `${resource.kind} ${ns}${resource.name}`;
}

export function hasErrors(results: readonly Result[]): boolean {
  return results.some((r) => r.severity === 'error');
}

/** One readable line, for stderr in stream mode. */
export function formatResult(result: Result): string {
  const where: string[] = [];
  if (result.resourceRef) {
    const { kind, name, namespace } = result.resourceRef;
    where.push(`${kind} ${namespace === undefined ? '' : `${namespace}/`}${name}`);
  }
  if (result.field) where.push(result.field.path);
  if (result.file) where.push(result.file.path);
  const location = where.length > 0 ? ` [${where.join(' ')}]` : '';
  return `${result.severity}: ${result.message}${location}`;
}
