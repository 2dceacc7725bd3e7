// JSON values, as the readers build them and every room walks them: the floor of model/, below
// paths (path.ts walks values) and resources (resource.ts names fields by paths).
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
