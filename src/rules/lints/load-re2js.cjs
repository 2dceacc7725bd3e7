// re2js is only needed when a workload the function annotates carries a Reloader `reload` list
// with a regular expression in it. Required inside a function, esbuild still bundles it but
// evaluates it on first use: a run without such a list never loads it.
module.exports = () => require('re2js').RE2JS;
