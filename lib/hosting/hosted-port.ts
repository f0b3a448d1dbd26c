import 'server-only';

/** The hosted listener's bound port (PORT=0 binds a random one), for links built in pages. */
const state: { port: number | null } = { port: null };

export const setHostedPort = (port: number) => void (state.port = port);
export const getHostedPort = () => state.port;
