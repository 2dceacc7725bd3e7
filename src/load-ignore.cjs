// `ignore` (.gitignore matching) is only needed by `impact` on a directory with a .krmignore or
// --exclude patterns. Required inside a function, it is loaded on first use: a run of the function
// never loads it. The build (build.mjs) keeps it out of the bundle, in a file of its own beside it.
module.exports = () => require('ignore');
