// The thin entry point: arguments, stdin, stdout/stderr, exit code. Everything else is in run().
import { healthCheckPatch } from './argocd/health-check.js';
import { plan, run } from './run.js';

const usage = `Usage: secret-rollout [--verbose] [key=value ...] < input.yaml
              secret-rollout plan [--mermaid] [key=value ...] < input.yaml
                                       print the wave plan (stores, sources, consumers) as a table
                                       or a Mermaid flowchart
       secret-rollout argocd-health    print an argocd-cm patch with the ExternalSecret health check

Reads a KRM ResourceList (kpt, kustomize) or a plain YAML stream (kustomize build, helm template)
on stdin and writes it to stdout with checksum annotations on the pod templates that consume
ExternalSecrets and Argo CD sync waves on ExternalSecrets and their stores.
key=value options apply to YAML streams; see the README for the options.
`;

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'argocd-health') {
    process.stdout.write(healthCheckPatch());
    return 0;
  }
  const planning = argv[0] === 'plan';
  const args = planning ? argv.slice(1) : argv;
  const settings: Record<string, string> = {};
  let verbose = false;
  let mermaid = false;
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(usage);
      return 0;
    }
    if (arg === '--verbose') verbose = true;
    else if (planning && arg === '--mermaid') mermaid = true;
    else if (/^[A-Za-z]\w*=/.test(arg)) {
      const eq = arg.indexOf('=');
      const key = arg.slice(0, eq);
      // The last one winning would hide a typo'd pipeline or a clash with a CI default.
      if (Object.hasOwn(settings, key)) {
        process.stderr.write(`secret-rollout: option ${key} given twice\n`);
        return 1;
      }
      settings[key] = arg.slice(eq + 1);
    } else {
      process.stderr.write(`secret-rollout: unknown argument ${JSON.stringify(arg)}\n${usage}`);
      return 1;
    }
  }
  if (process.stdin.isTTY) {
    process.stderr.write(`secret-rollout: no input on stdin\n${usage}`);
    return 1;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readStdin());
  } catch {
    process.stderr.write('secret-rollout: stdin is not valid UTF-8\n');
    return 1;
  }
  // kustomize sets LOG_TO_STDERR and shows only stderr when a function fails.
  const logToStderr = process.env.LOG_TO_STDERR === 'true';
  const result = planning
    ? plan(text, { settings, mermaid })
    : run(text, { settings, verbose, logToStderr });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

/** All of stdin, read as a stream: a pipe whose writer is slow is waited for, not cut short. */
async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug, not bad input: still one line and exit 1, never a stack trace an orchestrator shows.
    process.stderr.write(`secret-rollout: internal error: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
