// esbuild's `text` loader for .svg (scripts/build.mjs): the file's text.
declare module '*.svg' {
  const text: string;
  export default text;
}
