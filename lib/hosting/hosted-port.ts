import 'server-only';
import { processState } from '../process-state';

/** The hosted listener's bound port (PORT=0 binds a random one), for links built in pages. */
const state = processState<{ port: number | null }>('hosted-port', () => ({ port: null }));

export const setHostedPort = (port: number) => void (state.port = port);
export const getHostedPort = () => state.port;
