// What finding an item's pod templates makes, counted (never timed): a list only for an item that
// has one, so the reader and the consumers stage make none for the items without (most of them).
import { describe, expect, it } from 'vitest';
import type { Resource } from '../src/model/resource.js';
import { podTemplateShapes, podTemplatesOf, templatesIn } from '../src/rules/workloads/shapes.js';

const item = (kind: string, value: unknown) =>
  ({ apiVersion: 'apps/v1', kind, name: 'x', annotations: {}, value }) as unknown as Resource;

describe('pod templates found', () => {
  it('items without one share one empty list; a workload gets its template', () => {
    const lists = new Set(
      [
        item('Service', { spec: { ports: [] } }),
        item('ConfigMap', { data: {} }),
        item('Deployment', { spec: { template: { spec: {} } } }),
      ].map((r) => podTemplatesOf(r, [])),
    );
    lists.add(templatesIn({ spec: {} }, podTemplateShapes));
    // One list for all four (main made a list per item asked: four).
    expect(lists.size).toBe(1);
    expect([...lists][0]).toEqual([]);
    const spec = { containers: [{ name: 'app' }] };
    const [template, ...others] = podTemplatesOf(
      item('Deployment', { spec: { template: { spec } } }),
      [],
    );
    expect(others).toEqual([]);
    expect(template?.podSpec).toBe(spec);
    expect(template?.shape).toBe(podTemplateShapes[0]);
  });
});
