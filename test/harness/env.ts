import { setup, teardown } from './userFolder';
import { setSafeRegexEngine } from 'n8n-workflow';

// Under jest the global setup has set the folder; scripts (demo, bench) get their own here.
if (!process.env.N8N_USER_FOLDER) {
	setup();
	process.once('exit', teardown);
}
process.env.N8N_LOG_LEVEL ??= 'silent';

// n8n-workflow runs a parameter's validation regex in a vm with a 250 ms wall-clock limit (a
// guard against runaway patterns). On a loaded CI machine that limit fired on a one-character
// test of the package's own report-ID pattern (CI: "Regular expression execution timed out").
// The engine runs the same patterns here, natively: what they accept is unchanged, only the clock
// that a busy machine can trip is gone.
setSafeRegexEngine({
	exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
	test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
	replace: (pattern, input, flags, replacement) =>
		input.replace(new RegExp(pattern, flags), replacement),
	matchAll: (pattern, input, flags) =>
		Array.from(
			input.matchAll(new RegExp(pattern, flags?.includes('g') ? flags : `${flags ?? ''}g`)),
		),
	split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
});
