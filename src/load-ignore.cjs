// `ignore` (.gitignore matching) is only needed by `impact` on a directory with a .krmignore or
// --exclude patterns. Required inside a function, esbuild still bundles it but evaluates it on
// first use: a run of the function never loads it.
module.exports = () => require('ignore');
