// re2js is only needed when a workload the function annotates carries a Reloader `reload` list
// with a regular expression in it. Required inside a function, it is loaded on first use: a run
// without such a list never loads it. The build (build.mjs) keeps it out of the bundle, in a file
// of its own beside it; kept here after the first call, so that later calls skip the module lookup.
let re2js;
module.exports = () => {
  re2js ??= require('re2js').RE2JS;
  return re2js;
};
