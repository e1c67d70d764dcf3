/**
 * A throw-away Redis for queue mode: Debian's redis-server (CI installs it: .ci/run), on a free loopback port,
 * nothing saved to disk.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

import { getFreePort, startDaemon, waitReady, type Daemon } from './proc';

export interface Redis {
	host: string;
	port: number;
	daemon: Daemon;
	stop(): Promise<void>;
}

export async function startRedis(): Promise<Redis> {
	const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
	if (which.status !== 0)
		throw new Error(
			"redis-server is not installed: apt-get install redis-server (Debian's package)",
		);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phprank-redis-'));
	const port = await getFreePort();
	const daemon = startDaemon({
		name: 'redis',
		command: 'redis-server',
		args: [
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		],
		logFile: path.join(dir, 'redis.log'),
	});
	await waitReady(daemon, () => ping(port), 30_000, 'PONG');
	return {
		host: '127.0.0.1',
		port,
		daemon,
		stop: async () => {
			await daemon.stop();
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

async function ping(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		let answer = '';
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (d) => {
			answer += d.toString();
			if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
		});
	});
}
