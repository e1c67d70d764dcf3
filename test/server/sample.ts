import { DEFAULT_HOSTS, PhpRankServer, USER_IDS } from './server';
import type { ServerOptions } from './types';

/**
 * A started server with 30 reports over six hosts for the default user (a mix of good, decent and
 * bad scores, some private or password protected) and a few reports owned by the other user.
 */
export async function startSampleServer(options: ServerOptions = {}): Promise<PhpRankServer> {
	const server = new PhpRankServer(options);
	server.seedReports(30, { hosts: DEFAULT_HOSTS, startDate: new Date('2026-01-05T08:00:00Z') });
	server.seedReports(4, {
		userId: USER_IDS.other,
		hosts: ['example.com', 'competitor.example.net'],
		startDate: new Date('2026-01-10T12:00:00Z'),
	});
	await server.start();
	return server;
}
