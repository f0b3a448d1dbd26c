// `server-only` guards Next bundles; compiled server code is server code by definition.
export {};
