'use strict';
/**
 * n8n external hook for `npm run bench:n8n` (scripts/n8n/bench.ts), loaded into the n8n process through
 * EXTERNAL_HOOK_FILES. After each execution (and after n8n saved it to its database) it writes
 * `$PHPRANK_BENCH_DIR/<workflow id>.json`: each node's executionTime and item counts from the run data,
 * and the process's peak RSS (VmHWM) so far. It then keeps only the first item of every node output, so
 * `n8n execute` does not print hundreds of MB of items that nobody reads.
 */
const fs = require('fs');
const path = require('path');

function memoryKb() {
	const status = fs.readFileSync('/proc/self/status', 'utf8');
	const kb = (field) => Number((new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status) || [])[1]);
	return { peakRss: kb('VmHWM'), rss: kb('VmRSS') };
}

async function postExecute(run, workflowData) {
	const dir = process.env.PHPRANK_BENCH_DIR;
	if (!dir || !run) return;
	const memory = memoryKb();
	const resultData = (run.data && run.data.resultData) || {};
	const nodes = {};
	for (const [name, tasks] of Object.entries(resultData.runData || {})) {
		nodes[name] = tasks.map((task) => {
			const main = (task.data && task.data.main) || [];
			const summary = {
				executionTime: task.executionTime,
				status: task.executionStatus,
				items: main.map((output) => (output ? output.length : 0)),
				first: main[0] && main[0][0] ? main[0][0].json : undefined,
				error: task.error ? task.error.message : undefined,
			};
			if (task.data && task.data.main)
				task.data.main = main.map((output) => (output ? output.slice(0, 1) : output));
			return summary;
		});
	}
	const out = {
		workflowId: workflowData.id,
		status: run.status,
		error: resultData.error ? resultData.error.message : undefined,
		nodes,
		memoryKb: memory,
	};
	fs.writeFileSync(path.join(dir, `${workflowData.id}.json`), JSON.stringify(out));
}

module.exports = { workflow: { postExecute: [postExecute] } };
