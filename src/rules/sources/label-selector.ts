// Kubernetes label selectors (metav1.LabelSelector), as LabelSelectorAsSelector evaluates them:
// matchLabels AND matchExpressions; null matches nothing, an empty selector matches everything.
import type { Json } from '../../model/json.js';
import { ItemError } from '../../model/resource.js';
import {
  optionalList,
  optionalObject,
  optionalString,
  requiredString,
  stringMap,
} from './fields.js';

type Labels = Readonly<Record<string, string>>;

export interface LabelSelector {
  /** The label keys the selector reads. */
  keys: ReadonlySet<string>;
  /** Its requirements (matchLabels entries and matchExpressions): the most a match tests. */
  requirements: number;
  matches(labels: Labels): boolean;
}

const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

/** Parses a selector at `field`; invalid ones (unknown operator, In with no values…) throw. */
export function labelSelector(value: Json, field: string): LabelSelector {
  if (value === null) return { keys: new Set(), requirements: 0, matches: () => false };
  const selector = optionalObject(value, field) ?? {};
  const matchLabels = stringMap(selector.matchLabels, `${field}.matchLabels`) as Labels;
  const tests: ((labels: Labels) => boolean)[] = Object.entries(matchLabels).map(
    ([key, want]) =>
      (labels) =>
        labels[key] === want,
  );
  const keys = new Set(Object.keys(matchLabels));
  optionalList(selector.matchExpressions, `${field}.matchExpressions`).forEach((entry, i) => {
    const at = `${field}.matchExpressions[${i}]`;
    const expression = optionalObject(entry, at) ?? {};
    const key = requiredString(expression.key, `${at}.key`);
    const operator = optionalString(expression.operator, `${at}.operator`);
    if (!operators.includes(operator as (typeof operators)[number])) {
      throw new ItemError(
        `${at}.operator must be one of ${operators.join(', ')}`,
        `${at}.operator`,
      );
    }
    const values = optionalList(expression.values, `${at}.values`).map((v, j) => {
      if (typeof v !== 'string') {
        throw new ItemError(`${at}.values[${j}] is not a string`, `${at}.values[${j}]`);
      }
      return v;
    });
    const needsValues = operator === 'In' || operator === 'NotIn';
    if (needsValues !== values.length > 0) {
      const rule = needsValues ? 'needs at least one value' : 'takes no values';
      throw new ItemError(`${at}: operator ${operator} ${rule}`, `${at}.values`);
    }
    keys.add(key);
    // A set: one look-up a test, however many values the selector lists.
    const listedValues = new Set(values);
    tests.push((labels) => {
      const has = Object.hasOwn(labels, key);
      if (operator === 'Exists') return has;
      if (operator === 'DoesNotExist') return !has;
      const listed = has && listedValues.has(labels[key] as string);
      return operator === 'In' ? listed : !listed;
    });
  });
  return {
    keys,
    requirements: tests.length,
    matches: (labels) => tests.every((test) => test(labels)),
  };
}
