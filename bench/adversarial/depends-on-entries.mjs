// Adversarial family: `ordering: depends-on`, one Deployment reading the Secrets of n
// ExternalSecrets. The entries of its depends-on annotation are kept unique by a scan of those
// before each (src/rules/order/deployers.ts planDependsOn `wanted.includes`; planDeployerOrder's
// `list.includes` likewise): time grows with n² (at c44bdf0: 1 MB 0.42–0.59 s, 8 MB 8.3 s; profile
// at 4 MB: planDependsOn 3.0 s self of 4.3 s).
import { oneReaderOfMany } from './_fill.mjs';

export function generate(bytes) {
  return oneReaderOfMany(bytes, 'depends-on');
}
