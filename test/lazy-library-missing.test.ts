// Review of round 1 (issue #24): the libraries only some runs load are files of their own in
// dist/ (build.mjs). An install that lacks one (a partial copy of dist/, a hand-made image) must
// still fail as any run fails: one line on stderr, exit 1, no stack. It printed Node's
// "Cannot find module" message with its "Require stack:" lines. Needs `npm run build` first.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// A tagged value the quick reader declines: the `yaml` library's verdict is asked for.
const input = `apiVersion: v1
kind: ConfigMap
metadata: {name: a}
data: {a: !!binary aGk=}
`;

describe('dist/ without one of its library files', () => {
  // The rules' file (build.mjs: the split) is read by the launcher, not required: ENOENT.
  it.each(['secret-rollout-yaml.cjs', 'secret-rollout-rules.cjs'])(
    'without %s: fails with one line on stderr and exit 1',
    (missing) => {
      const dist = mkdtempSync(path.join(tmpdir(), 'partial-dist-'));
      for (const file of readdirSync(path.join(root, 'dist'))) {
        if (file !== missing) copyFileSync(path.join(root, 'dist', file), path.join(dist, file));
      }
      const out = spawnSync(process.execPath, [path.join(dist, 'secret-rollout.cjs')], {
        input,
        encoding: 'utf8',
      });
      expect(out.status).toBe(1);
      expect(out.stderr).toMatch(/^secret-rollout: [^\n]*reinstall\)\n$/);
    },
  );
});
