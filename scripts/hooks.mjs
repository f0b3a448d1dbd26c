// Loaded with `node --import` next to tsx: `server-only` throws outside Next's react-server
// build, but server.ts and the scripts are server code by definition.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'server-only') return { url: 'data:text/javascript,export{}', shortCircuit: true };
  return nextResolve(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
