// `?raw` imports are the file's text: vitest (vite) does this natively, build.mjs with a plugin.
declare module '*.lua?raw' {
  const text: string;
  export default text;
}
declare module '*.yaml?raw' {
  const text: string;
  export default text;
}
