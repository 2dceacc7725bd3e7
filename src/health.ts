// `secret-rollout health --for DEPLOYER`: the generation-aware ExternalSecret readiness check in
// each deployer's own form. The checks are files beside the code (argocd/, flux/, kapp/), printed
// as they are, so that what a user copies from the repository and what the command prints agree.
import fluxCheck from '../flux/externalsecret-health.yaml?raw';
import kappConfig from '../kapp/externalsecret-wait-rule.yaml?raw';
import { healthCheckPatch } from './rules/argocd-health.js';

export const deployers = ['argocd', 'flux', 'kapp', 'kstatus'] as const;
export type Deployer = (typeof deployers)[number];

export const isDeployer = (word: string): word is Deployer =>
  (deployers as readonly string[]).includes(word);

/** kstatus has no hook for a custom check: what it reads, and what to do instead. */
const kstatusText = `kstatus (kpt live apply, Config Sync, Helm 4 --wait=watcher) cannot wait for an ExternalSecret's
current generation, and takes no custom check.

ESO writes no status.observedGeneration, so kstatus skips its generation check and reads the
Ready condition alone (cli-utils pkg/kstatus/status). Right after a spec change, the Ready=True
of the previous generation counts as Current: a workload that depends on the ExternalSecret
(config.kubernetes.io/depends-on) can roll before ESO has written the new Secret. First creation
is ordered: there is no Ready condition until ESO's first sync.

Alternatives:
- targetNames: hashed: each ExternalSecret's Secret is named after its content, so a new pod
  cannot start on the old value, whatever waits or not (docs/target-names.md).
- A depends-on chain (ordering: depends-on) still orders first creation and deletion.
- A deployer that takes a custom check: secret-rollout health --for argocd, --for flux or
  --for kapp.
`;

/** The check for one deployer, as text to print. */
export function healthFor(deployer: Deployer): string {
  switch (deployer) {
    case 'argocd':
      return healthCheckPatch();
    case 'flux':
      return fluxCheck;
    case 'kapp':
      return kappConfig;
    case 'kstatus':
      return kstatusText;
  }
}
