// What the writer puts between double quotes (or in a JSON document) is YAML that every reader
// takes as the same string: JSON.stringify leaves DEL, the C1 controls and U+FFFE/FFFF as they
// are, which YAML does not allow (kpt: "control characters are not allowed"; this reader, on the
// next run, refuses them too), and NEL, which kpt's YAML 1.1 reader takes for a line break and
// folds to a space. Each is written as a `\uXXXX` escape.
import { describe, expect, it } from 'vitest';
import { resultsYaml } from '../src/krm/results-yaml.js';
import { formatScalar } from '../src/krm/yaml/site.js';
import { checksum } from '../src/model/result-rules.js';
import { plainResult } from '../src/model/results.js';
import { run } from '../src/run.js';
import { deployment, externalSecret, resourceList, runOk, secretKeyRef } from './helpers.js';

const unsafe = ['\x7f', '\x80', '\x85', '\x9f', '\ufffe', '\uffff'];
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

describe('a double-quoted value', () => {
  it.each(unsafe.map((c) => [escaped(c), c]))('escapes %s', (written, c) => {
    expect(formatScalar(`a${c}b`, 'double')).toBe(`"a${written}b"`);
    // Neither quotes nor a plain scalar hold it: single quotes fall back to double ones.
    expect(formatScalar(`a${c}b`, 'single')).toBe(`"a${written}b"`);
    expect(resultsYaml([plainResult(checksum, `a${c}b`)], '\n').join('')).toContain(written);
  });
});

describe('a name with a DEL escaped in the input', () => {
  it('is written escaped: a second run reads the output, and changes nothing', () => {
    // Main wrote the DEL itself in the results (the ExternalSecret's name in its messages and
    // resourceRef), exit 0, and the next run refused the output: "line 48 has the non-printable
    // character U+007F, which YAML does not allow".
    const input = resourceList([
      externalSecret('"db\\x7f"', { namespace: 'shop' }),
      deployment('api', secretKeyRef('"db\\x7f"', 'password'), { namespace: 'shop' }),
    ]);
    const first = runOk(input);
    expect(first.stdout).not.toMatch(/[\x7f-\x9f]/);
    expect(first.stdout).toContain('db\\u007f');
    expect(run(first.stdout)).toMatchObject({ exitCode: 0, stdout: first.stdout });
  });
});

describe('a JSON ResourceList', () => {
  it('keeps an escaped C1 control escaped', () => {
    // Written from its value with JSON.stringify: main wrote the NEL itself, which kpt reads as a
    // space in a value the function never edits.
    const input = JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'x\x85y' } },
      ],
    });
    const { stdout } = runOk(input);
    expect(stdout).toContain('"x\\u0085y"');
    expect(stdout).not.toContain('\x85');
  });
});
