import 'server-only';
import { requestContext, type Runtime } from '../runtime';

/** The hosted listener's bound port (PORT=0 binds a random one), for links built in pages. */
export const setHostedPort = (rt: Runtime, port: number) => void (rt.hostedPort = port);
/** `rt`'s hosted port, else that of the service whose request Next is handling. */
export const getHostedPort = (rt: Runtime | undefined = requestContext()?.rt) => rt?.hostedPort ?? null;
