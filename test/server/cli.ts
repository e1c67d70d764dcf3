// Starts the sample phpRank server for demos:
//   npx ts-node --transpile-only test/server/cli.ts [--port 8787] [--throttle 60/60000 | --no-throttle]
//                                                  [--base-path /phprank] [--delay 1500]
import { NO_API_PLAN_KEY, OTHER_USER_KEY, TEST_API_KEY } from './server';
import { startSampleServer } from './sample';
import type { ServerOptions } from './types';

const USAGE =
	'usage: cli.ts [--port 8787] [--throttle LIMIT/WINDOW_MS | --no-throttle] [--base-path /path] [--delay MS]';

function usage(message: string): never {
	console.error(`${message}\n${USAGE}`);
	process.exit(2);
}

function parseArgs(args: string[]): ServerOptions {
	const options: ServerOptions = { port: 8787 };
	for (let i = 0; i < args.length; i++) {
		const flag = args[i];
		const value = (): string => args[++i] ?? usage(`${flag} needs a value`);
		switch (flag) {
			case '--port': {
				const port = Number(value());
				if (!Number.isInteger(port) || port < 0 || port > 65535) usage('--port must be 0-65535');
				options.port = port;
				break;
			}
			case '--throttle': {
				const match = /^(\d+)\/(\d+)$/.exec(value());
				if (!match) usage('--throttle must look like 60/60000');
				options.throttle = { limit: Number(match[1]), windowMs: Number(match[2]) };
				break;
			}
			case '--no-throttle':
				options.throttle = false;
				break;
			case '--base-path':
				options.basePath = value();
				break;
			case '--delay':
				options.analysisDelayMs = Number(value());
				break;
			case '--help':
			case '-h':
				console.log(USAGE);
				process.exit(0);
			default:
				usage(`unknown option ${flag}`);
		}
	}
	return options;
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const server = await startSampleServer(options);
	const throttle =
		options.throttle === false
			? 'off'
			: `${options.throttle?.limit ?? 60} requests / ${options.throttle?.windowMs ?? 60000} ms`;
	console.log(`phpRank test server: ${server.url}`);
	console.log(`API:                 ${server.url}/api/v1`);
	console.log(`API key:             ${TEST_API_KEY}`);
	console.log(`other user's key:    ${OTHER_USER_KEY}`);
	console.log(`key without API:     ${NO_API_PLAN_KEY}`);
	console.log(`throttle:            ${throttle}`);
	console.log('Ctrl+C to stop.');
	const shutdown = (): void => {
		void server.stop().then(() => process.exit(0));
	};
	process.once('SIGINT', shutdown);
	process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
