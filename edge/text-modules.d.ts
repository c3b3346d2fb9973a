// wrangler.toml bundles YAML files as text modules (its [[rules]]); so does the edge tests' bundler.
declare module '*.yaml' {
  const text: string;
  export default text;
}
