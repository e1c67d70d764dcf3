import { setup, teardown } from './userFolder';

// Under jest the global setup has set the folder; scripts (demo, bench) get their own here.
if (!process.env.N8N_USER_FOLDER) {
	setup();
	process.once('exit', teardown);
}
process.env.N8N_LOG_LEVEL ??= 'silent';
