/**
 * A throw-away Redis for queue mode: Debian's redis-server (CI installs it: .ci/run), on a free loopback port,
 * nothing saved to disk.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

import { getFreePort, startDaemon, waitFor, waitReady, type Daemon } from './proc';

export interface Redis {
	host: string;
	port: number;
	daemon: Daemon;
	/** SHUTDOWN SAVE, then the same port and folder again (its queues reloaded from the dump), as a service restart */
	restart(): Promise<void>;
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
	const launch = async () => {
		const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir];
		const daemon = startDaemon({
			name: 'redis',
			command: 'redis-server',
			args: [...args, '--appendonly', 'no', '--daemonize', 'no'],
			logFile: path.join(dir, 'redis.log'),
		});
		await waitReady(daemon, () => send(port, 'PING'), 30_000, 'PONG');
		return daemon;
	};
	const redis: Redis = {
		host: '127.0.0.1',
		port,
		daemon: await launch(),
		restart: async () => {
			await send(port, 'SHUTDOWN SAVE');
			await waitFor(() => redis.daemon.exited(), 30_000);
			redis.daemon = await launch();
		},
		stop: async () => {
			await redis.daemon.stop();
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
	return redis;
}

/** true when the answer is +PONG (a SHUTDOWN has none: the connection closes) */
async function send(port: number, command: string): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		let answer = '';
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('close', () => done(false));
		socket.on('connect', () => socket.write(`${command}\r\n`));
		socket.on('data', (d) => {
			answer += d.toString();
			if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
		});
	});
}
