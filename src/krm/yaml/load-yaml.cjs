// The `yaml` library is only needed by the fallback locator (locate-cst.ts) and the conforming
// reader's verdict (parse.ts). Required inside a function, it is loaded on first use: ≈20 ms less
// start-up. The build (build.mjs) keeps it out of the bundle, in a file of its own beside it; kept
// here after the first call, so that later calls skip the module lookup.
let yaml;
module.exports = () => {
  yaml ??= require('yaml');
  return yaml;
};
