/**
 * Checks more than one e2e suite makes (one n8n process: e2e/package.e2e.ts; queue mode:
 * e2e/queue.e2e.ts), and the test workflows they need beside the examples.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

import {
	TEST_API_KEY,
	USER_IDS,
	type PhpRankServer,
	type RecordedRequest,
} from '../../test/server';
import {
	exportNodes,
	type CredentialImport,
	type ExecutionItem,
	type ExportedNodeType,
} from './cli';
import { storedExecutions, waitForExecutions, type StoredExecution } from './db';
import { sentAgainIfClosed } from './rest';
import { installPackage, packPackage, resolveWorkflowPackage } from './packages';
import { Fatal, same, type Report } from './report';
import { getRuntime, type N8nRuntime } from './runtime';
import { createSandbox, removeSandbox, type N8nSandbox } from './sandbox';
import {
	PACKAGE,
	phpRank,
	webhook,
	workflow,
	type CredentialRef,
	type WorkflowJson,
} from './workflow';

export { NODE_TYPE, PACKAGE, TRIGGER_TYPE, type WorkflowJson } from './workflow';

export const REPO = path.resolve(__dirname, '..', '..');
export const EXAMPLES_DIR = path.join(REPO, 'examples');
/** The credential every example and test workflow uses: the bundled phpRank test server's key. */
export const CRED_ID = 'phprank-e2e';
export const CRED_NAME = 'phpRank (test server)';
export const PHPRANK_CRED = { id: CRED_ID, name: CRED_NAME };
const DAY = 86_400_000;

/** examples/<file>, parsed; Fatal if it is missing. */
export function loadExample(file: string): WorkflowJson {
	const at = path.join(EXAMPLES_DIR, file);
	if (!fs.existsSync(at)) throw new Fatal(`examples/${file} is missing`);
	return JSON.parse(fs.readFileSync(at, 'utf8')) as WorkflowJson;
}

export function loadExamples(): Map<string, WorkflowJson> {
	const files = fs.readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json'));
	return new Map(files.sort().map((file) => [file, loadExample(file)]));
}

export function run(
	cmd: string,
	args: string[],
	cwd: string,
): { code: number | null; output: string } {
	const r = spawnSync(cmd, args, {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, CI: 'true' },
	});
	return { code: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

export function apiRequests(server: PhpRankServer): RecordedRequest[] {
	return server.requests.filter((r) => r.path.includes('/api/'));
}

/** A request as `METHOD /path?query <body>`. */
export const describeRequest = (r: RecordedRequest) =>
	`${r.method} ${r.path}${r.rawQuery ? `?${r.rawQuery}` : ''}${r.rawBody ? ` <${r.rawBody}>` : ''}`;

export const describeRequests = (reqs: RecordedRequest[]) => reqs.map(describeRequest).join(' | ');

export function json(items: ExecutionItem[] | undefined): Array<Record<string, unknown>> {
	return (items ?? []).map((i) => i.json);
}

/** The addresses the examples that send e-mail (weekly monitor, site audit) write from and to. */
export const EXAMPLE_MAIL = { to: 'seo-team@example.com', from: 'seo-monitor@example.com' };

/** The housekeeping example deleted reports 1-4 (the seed's older than 90 days), each once, and nothing else. */
export function deletedOneToFour(requests: RecordedRequest[]): { ok: boolean; detail: string } {
	const deletes = requests.filter((r) => r.method === 'DELETE');
	const paths = deletes.map((r) => r.path).sort();
	const wanted = [1, 2, 3, 4].map((id) => `/api/v1/reports/${id}`);
	return { ok: same(paths, wanted), detail: describeRequests(deletes) };
}

/** The test server's data: 8 reports of the default user with known scores and ages, 2 of another user. */
export function seedServer(server: PhpRankServer, now: number): void {
	const add = (
		id: number,
		url: string,
		result: number,
		ageDays: number,
		userId: number = USER_IDS.default,
	) =>
		server.addReport({
			id,
			url,
			result,
			user_id: userId,
			created_at: new Date(now - ageDays * DAY).toISOString(),
			privacy: 0,
		});
	add(1, 'https://example.com/', 31, 200);
	add(2, 'https://example.com/pricing', 88, 200);
	add(3, 'https://shop.example.org/', 62, 150);
	add(4, 'https://blog.acme.io/seo-basics', 12, 120);
	add(5, 'https://blog.acme.io/', 45, 10);
	add(6, 'https://docs.widgets.dev/', 91, 5);
	add(7, 'https://news.sample.net/', 70, 3);
	add(8, 'https://shop.example.org/cart', 20, 1);
	add(9, 'https://example.com/other-user', 15, 300, USER_IDS.other);
	add(10, 'https://competitor.example.net/', 30, 200, USER_IDS.other);
}

/** examples/site-audit-from-sitemap.json: its file and the names of the nodes the e2e uses. */
export const SITEMAP_EXAMPLE = {
	file: 'site-audit-from-sitemap.json',
	site: 'Site',
	audit: 'Audit the site',
	email: 'Email the site summary',
	/** the data table its Audit the site keeps the history in (History Store → Data Table, By Name) */
	historyTable: 'phpRank site history',
	/** its phpRank History Store API credential (a placeholder, as its other credentials) */
	n8nApiCredential: { id: 'phprank-e2e-n8n-api', name: 'n8n API of this n8n (replace with yours)' },
} as const;

/** The phpRank History Store API credential the sitemap example names: `baseUrl` (n8n's own address) and an API key. */
export function sitemapN8nApiCredential(baseUrl: string, apiKey: string): CredentialImport {
	return {
		...SITEMAP_EXAMPLE.n8nApiCredential,
		type: 'phpRankN8nApi',
		data: { baseUrl, apiKey },
	};
}

/**
 * An e2e copy of an example whose Schedule Trigger (the one named `name`, else the first) fires on
 * `cron` (UTC, seconds first) instead of its weekly time.
 */
export function withSchedule(
	wf: WorkflowJson,
	file: string,
	cron: string,
	name?: string,
): WorkflowJson {
	const out = structuredClone(wf);
	const schedule = out.nodes.find((n) =>
		name ? n.name === name : n.type === 'n8n-nodes-base.scheduleTrigger',
	);
	if (schedule?.type !== 'n8n-nodes-base.scheduleTrigger')
		throw new Fatal(`examples/${file}: no Schedule Trigger${name ? ` "${name}"` : ''}`);
	schedule.parameters.rule = { interval: [{ field: 'cronExpression', expression: cron }] };
	return out;
}
/**
 * The sitemap example with its Site node's `sitemap_url` set to `sitemapUrl` (a local sitemap server's); every
 * other parameter, node and connection is the file's own.
 */
export function withSitemapUrl(example: WorkflowJson, sitemapUrl: string): WorkflowJson {
	const wf = structuredClone(example);
	const site = wf.nodes.find((n) => n.name === SITEMAP_EXAMPLE.site);
	const assignments = (
		site?.parameters.assignments as
			| { assignments?: Array<{ name: string; value: unknown }> }
			| undefined
	)?.assignments;
	const field = assignments?.find((a) => a.name === 'sitemap_url');
	if (!field)
		throw new Fatal(
			`examples/${SITEMAP_EXAMPLE.file}: no field "sitemap_url" in node "${SITEMAP_EXAMPLE.site}"`,
		);
	field.value = sitemapUrl;
	wf.name = `e2e: ${example.name}`;
	return wf;
}

/** DELETE or PUT (a form `body`) of /api/v1/reports/<id> on the test server, as another client would; throws unless 200. */
export async function reportRequest(
	api: PhpRankServer,
	method: 'DELETE' | 'PUT',
	id: number,
	body?: string,
): Promise<void> {
	const res = await fetch(`${api.url}/api/v1/reports/${id}`, {
		method,
		headers: {
			Authorization: `Bearer ${TEST_API_KEY}`,
			Accept: 'application/json',
			...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
		},
		body,
	});
	if (res.status !== 200)
		throw new Error(`${method} of report ${id} on the test server: HTTP ${res.status}`);
}

/** Replaces a stored report by one with another score (the test server has no API for that). */
export async function setResult(api: PhpRankServer, id: number, result: number): Promise<void> {
	const old = api.getReport(id);
	if (!old) throw new Error(`report ${id} not found`);
	await reportRequest(api, 'DELETE', id);
	api.addReport({
		id,
		url: `https://${old.url}`,
		user_id: old.user_id,
		result,
		privacy: old.privacy,
		created_at: old.created_at,
		generated_at: new Date().toISOString(),
	});
}

// ---------------------------------------------------------------------------------------------
// build, pack, install as the README says
// ---------------------------------------------------------------------------------------------

/** npm run build, npm pack into `work`, and the tarball's contents checked; returns the tarball. */
export async function buildAndPack(report: Report, work: string): Promise<string> {
	report.section('build and pack');
	fs.rmSync(path.join(REPO, 'dist'), { recursive: true, force: true });
	const build = await report.timed('npm run build', () => run('npm', ['run', 'build'], REPO));
	if (!report.check('npm run build succeeds', build.code === 0, build.output.slice(-4000)))
		throw new Fatal('build failed');
	const tgz = await report.timed('npm pack', () => packPackage(REPO, work));
	checkTarball(report, tgz);
	return tgz;
}

/** What the tarball holds: the package.json's nodes and credentials, nothing but dist/ and the docs. */
export function checkTarball(report: Report, tgz: string): void {
	const files = run('tar', ['-tzf', tgz], path.dirname(tgz))
		.output.split('\n')
		.filter(Boolean)
		.map((f) => f.replace(/^package\//, ''));
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	for (const entry of [...pkg.n8n.nodes, ...pkg.n8n.credentials])
		report.check(`tarball contains ${entry}`, files.includes(entry));
	report.check(
		'tarball holds only dist/, package.json, README, LICENSE',
		files.every(
			(f) => f.startsWith('dist/') || ['package.json', 'README.md', 'LICENSE'].includes(f),
		),
		files.filter((f) => !f.startsWith('dist/')),
	);
	report.check(
		'tarball has no test code or source maps',
		!files.some((f) => /(^|\/)test\/|\.map$|\.test\.js$/.test(f)),
		files.filter((f) => /test|\.map$/.test(f)),
	);
	report.note(
		`${path.basename(tgz)}: ${files.length} files, ${(fs.statSync(tgz).size / 1024).toFixed(0)} KiB`,
	);
}

/** The phpRank credential (id CRED_ID) for `n8n import:credentials`, pointing at a running test server. */
export function testServerCredential(api: { url: string }): CredentialImport {
	return {
		id: CRED_ID,
		name: CRED_NAME,
		type: 'phpRankApi',
		data: { baseUrl: api.url, apiKey: TEST_API_KEY },
	};
}

/**
 * Every node of `wf` (what the suite imports, e.g. `the e2e workflow` or `the example`) is a type and version this
 * n8n has (`n8n export:nodes`), and the example uses no Code node: users run it as it is.
 */
export function checkExampleNodes(
	report: Report,
	opts: { wf: WorkflowJson; example: WorkflowJson; nodeTypes: ExportedNodeType[]; label: string },
): void {
	const unknown = opts.wf.nodes
		.filter(
			(n) =>
				!opts.nodeTypes.some(
					(t) => t.name === n.type && [t.version].flat().includes(n.typeVersion),
				),
		)
		.map((n) => `${n.type}@${n.typeVersion}`);
	report.check(
		`every node type and version of ${opts.label} is one this n8n has`,
		unknown.length === 0,
		unknown,
	);
	report.check(
		'the example has no Code node',
		!opts.example.nodes.some((n) => /\.code$|\.function(Item)?$/.test(n.type)),
		opts.example.nodes.map((n) => n.type),
	);
}

export interface SandboxWithPackage {
	runtime: N8nRuntime;
	sb: N8nSandbox;
	/** the installed package folder (~/.n8n/nodes/node_modules/n8n-nodes-phprank) */
	installedDir: string;
	/** every node type the sandbox's n8n loads (`n8n export:nodes`), ours included */
	allNodes: ExportedNodeType[];
}

/**
 * The cached n8n (installed on first use), a fresh sandbox with the tarball installed as README says (checked
 * by installAsReadmeSays), and the node types n8n loads from it. The sandbox is removed again if a step fails.
 */
export async function sandboxWithPackage(
	report: Report,
	tarball: string,
): Promise<SandboxWithPackage> {
	report.section('n8n runtime and package install (README: "Manually with npm")');
	const runtime = await report.timed('install.sh (cached n8n + Node 24)', () =>
		getRuntime({ install: true }),
	);
	const sb = await createSandbox({ runtime });
	try {
		const installedDir = await report.timed('npm install in ~/.n8n/nodes', () =>
			installAsReadmeSays(report, sb, tarball),
		);
		const allNodes = await report.timed('n8n export:nodes', () => exportNodes(sb));
		return { runtime, sb, installedDir, allNodes };
	} catch (error) {
		await removeSandbox(sb);
		throw error;
	}
}

/**
 * Installs the tarball as README's "Manually with npm" says and checks that the package loads n8n's own
 * n8n-workflow: no copy under ~/.n8n/nodes, and `require('n8n-workflow')` from the node file resolves to the
 * file n8n-core uses (a second copy fails n8n-core's `instanceof NodeApiError`).
 */
export async function installAsReadmeSays(
	report: Report,
	sb: N8nSandbox,
	tarball: string,
	label = '',
): Promise<string> {
	const at = label ? ` (${label})` : '';
	const installed = await installPackage(sb, tarball);
	report.check(
		`npm install in ~/.n8n/nodes installed ${PACKAGE}${at}`,
		installed.name === PACKAGE,
		installed,
	);
	const nodesDir = path.dirname(sb.nodeModulesDir);
	const top = fs.readdirSync(sb.nodeModulesDir).filter((e) => !e.startsWith('.'));
	report.check(
		`~/.n8n/nodes/node_modules holds only ${PACKAGE}: no peer installed beside it${at}`,
		top.length === 1 && top[0] === PACKAGE,
		top,
	);
	const resolution = resolveWorkflowPackage(
		sb,
		path.join(installed.dir, 'dist', 'nodes', 'PhpRank', 'PhpRank.node.js'),
	);
	report.check(
		`no copy of n8n-workflow anywhere under ${path.relative(sb.userFolder, nodesDir)}${at}`,
		resolution.copiesInNodesFolder.length === 0,
		resolution.copiesInNodesFolder,
	);
	report.check(
		`in n8n, the package loads the n8n-workflow that n8n-core uses${at}`,
		resolution.fromPackage === resolution.fromN8nCore &&
			resolution.fromPackage.startsWith(sb.runtime.cacheDir),
		resolution,
	);
	return installed.dir;
}

// ---------------------------------------------------------------------------------------------
// a failed Create with a literal password
// ---------------------------------------------------------------------------------------------

/**
 * POSTs JSON to a production webhook. n8n answers readiness before it has registered the webhooks of
 * published workflows, so a 404 "not registered" is retried for a minute.
 */
export async function callWebhook(
	url: string,
	body: unknown,
): Promise<{ status: number; body: string }> {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const res = await sentAgainIfClosed('POST', () =>
			fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(600_000),
			}),
		);
		const text = await res.text();
		if (res.status !== 404 || !text.includes('not registered') || Date.now() > deadline)
			return { status: res.status, body: text };
		await new Promise((r) => setTimeout(r, 500));
	}
}

/** Literal on purpose: an expression would keep it out of the node's parameters. */
export const LITERAL_PASSWORD = 'Lit3ral-report-Passw0rd';
const FAILED_CREATE_URL = 'https://example.com/members';

/** Webhook (answers at once) → phpRank Create with Password privacy and a literal password. */
export function failedCreateWorkflow(opts: {
	id: string;
	webhookPath: string;
	credential: CredentialRef;
}): WorkflowJson {
	const create = 'Create protected report';
	const parameters = {
		resource: 'report',
		operation: 'create',
		url: FAILED_CREATE_URL,
		privacy: 2,
		password: LITERAL_PASSWORD,
		simplify: true,
	};
	return workflow(
		opts.id,
		'e2e: Create with a password (fails)',
		[webhook(opts.webhookPath, 'onReceived'), phpRank(create, parameters, opts.credential)],
		[['Webhook', create]],
	);
}

/** The phpRank answers the failed Create gets, with the code the stored error must keep. */
export const CREATE_FAULTS = [
	{ status: 500, fault: { type: 'status' as const, status: 500 } },
	{
		status: 422,
		fault: {
			type: 'status' as const,
			status: 422,
			body: { message: { url: ['Could not fetch the url.'] }, status: 422 },
		},
	},
];

/** Paths of every string in `value` that contains `needle` (shared objects are followed on each path). */
export function pathsContaining(
	value: unknown,
	needle: string,
	at = '',
	ancestors: unknown[] = [],
): string[] {
	if (typeof value === 'string') return value.includes(needle) ? [at] : [];
	if (!value || typeof value !== 'object' || ancestors.includes(value)) return [];
	const inner = [...ancestors, value];
	return Object.entries(value).flatMap(([k, v]) => [
		...(k.includes(needle) ? [`${at}.${k} (key)`] : []),
		...pathsContaining(v, needle, at ? `${at}.${k}` : k, inner),
	]);
}

/**
 * n8n keeps the node definition (parameters included) in the execution's own copy of the workflow and in its
 * execution stack; a password typed into the node is part of the workflow by design. Anything else is a leak.
 */
const WORKFLOW_COPIES = /^executionData\.nodeExecutionStack\.\d+\.node\.parameters\.password$/;

/**
 * Fires the failed-create webhook once per fault, then checks each stored execution: failed, the phpRank HTTP
 * code kept (n8n-core re-wraps an error it does not recognise with httpCode "none"), and the password nowhere
 * but in n8n's copies of the workflow. Returns the stored executions (for callers' own checks).
 */
export async function checkFailedCreate(
	report: Report,
	opts: { sb: N8nSandbox; api: PhpRankServer; webhookUrl: string; workflowId: string },
): Promise<StoredExecution[]> {
	const done: StoredExecution[] = [];
	for (const { status, fault } of CREATE_FAULTS) {
		const seen = opts.api.requests.length;
		opts.api.failNext(fault, {
			match: (r) =>
				r.method === 'POST' && r.path === '/api/v1/reports' && r.form.url === FAILED_CREATE_URL,
		});
		const before = (await storedExecutions(opts.sb, opts.workflowId)).length;
		const res = await callWebhook(opts.webhookUrl, {});
		report.check(
			`HTTP ${status}: the webhook accepted the call`,
			res.status === 200,
			`${res.status} ${res.body}`,
		);
		const stored = await waitForExecutions(opts.sb, opts.workflowId, before + 1);
		const exec = stored[before];
		if (
			!report.check(
				`HTTP ${status}: the execution is stored, status error`,
				exec?.status === 'error',
				stored.map((e) => [e.id, e.status]),
			)
		)
			continue;
		done.push(exec);
		const posts = opts.api.requests
			.slice(seen)
			.filter(
				(r) => r.method === 'POST' && r.path === '/api/v1/reports' && r.form.password !== undefined,
			);
		report.check(
			`HTTP ${status}: one POST /api/v1/reports with privacy=2 and the password (phpRank is the one place it goes)`,
			posts.length === 1 &&
				posts[0].form.privacy === '2' &&
				posts[0].form.password === LITERAL_PASSWORD &&
				posts[0].form.url === FAILED_CREATE_URL,
			describeRequests(posts),
		);
		const error = exec.data.resultData?.error as
			| { httpCode?: string; message?: string; node?: { parameters?: Record<string, unknown> } }
			| undefined;
		report.check(
			`HTTP ${status}: the stored error keeps the HTTP code ${status} (not "none")`,
			error?.httpCode === String(status),
			{ httpCode: error?.httpCode, message: error?.message },
		);
		// the node's own text names phpRank and the status; n8n's re-wrap of a foreign error would not
		report.check(
			`HTTP ${status}: the stored error is the node's own message`,
			/phpRank/.test(error?.message ?? '') && error?.message?.includes(`HTTP ${status}`),
			error?.message,
		);
		report.check(
			`HTTP ${status}: the stored error names the node with the password masked`,
			error?.node?.parameters?.password === '[hidden]',
			error?.node?.parameters,
		);
		const found = pathsContaining(exec.data, LITERAL_PASSWORD);
		const leaks = found.filter((p) => !WORKFLOW_COPIES.test(p));
		report.check(
			`HTTP ${status}: the password is in no error object and no run data of the stored execution`,
			leaks.length === 0,
			leaks,
		);
		report.note(`the password is stored at: ${found.join(', ') || '(nowhere)'}`);
	}
	return done;
}
