import * as fs from 'fs';
import { createSandbox, removeSandbox, startServer } from '../scripts/n8n/n8n';
import { withoutEditor } from '../scripts/n8n/sandbox';

function groupCpu(pgid: number): number {
	let ticks = 0;
	for (const d of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(d)) continue;
		try {
			const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
			const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
			if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
		} catch { /* gone */ }
	}
	return ticks / 100;
}

async function one(opts: string): Promise<number> {
	const env: Record<string,string> = {};
	for (const kv of opts.split(';').filter(Boolean)) { const i = kv.indexOf('='); env[kv.slice(0,i)] = kv.slice(i+1); }
	const sb = await createSandbox({ env });
	const t = Date.now();
	const n8n = await startServer(sb);
	const wall = (Date.now() - t) / 1000;
	await new Promise((r) => setTimeout(r, 3000));
	const cpu = groupCpu(n8n.pid);
	await n8n.stop();
	await removeSandbox(sb);
	console.log(`${(opts || 'default').slice(0,40)}\twall ${wall.toFixed(1)}\tcpu ${cpu.toFixed(1)}`);
	return cpu;
}

async function main() {
	withoutEditor();
	const variants = (process.env.VARIANTS ?? '|--max-semi-space-size=64').split('|');
	for (let i = 0; i < Number(process.env.ROUNDS ?? 3); i++) for (const v of variants) await one(v);
}
void main();
