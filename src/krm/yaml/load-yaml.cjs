// The `yaml` library is only needed by the fallback locator (locate-cst.ts). Required inside a
// function, esbuild still bundles it but evaluates it on first use: ≈20 ms less start-up.
module.exports = () => require('yaml');
