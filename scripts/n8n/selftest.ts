/**
 * Self-test of the real-n8n harness (scripts/n8n/n8n.ts) with a throw-away community node.
 * Proves every mechanic the real e2e needs, independent of the phpRank node:
 *   pack -> install into .n8n/nodes/node_modules -> export:nodes -> import credentials + workflow
 *   -> n8n execute against a loopback HTTP server -> n8n start -> owner setup -> login
 *   -> credential test endpoint with a right and a wrong key.
 *
 *   npx ts-node --transpile-only scripts/n8n/selftest.ts   (add --install to run install.sh first)
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import {
	createSandbox,
	executeWorkflow,
	exportNodes,
	getRuntime,
	importCredentials,
	importWorkflows,
	installPackage,
	login,
	packPackage,
	removeSandbox,
	setupOwner,
	startServer,
	DEFAULT_OWNER,
	type N8nServer,
} from './n8n';

const RIGHT_KEY = 'right-key';

function writeTinyPackage(dir: string): void {
	const w = (rel: string, content: string) => {
		fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
		fs.writeFileSync(path.join(dir, rel), content);
	};
	w(
		'package.json',
		JSON.stringify({
			name: 'n8n-nodes-harnesstest',
			version: '0.0.1',
			keywords: ['n8n-community-node-package'],
			license: 'MIT',
			files: ['dist'],
			n8n: {
				n8nNodesApiVersion: 1,
				strict: true,
				credentials: ['dist/credentials/HarnessApi.credentials.js'],
				nodes: ['dist/nodes/Harness/Harness.node.js'],
			},
			peerDependencies: { 'n8n-workflow': '*' },
		}),
	);
	w(
		'dist/credentials/HarnessApi.credentials.js',
		`"use strict";
class HarnessApi {
  constructor() {
    this.name = 'harnessApi';
    this.displayName = 'Harness API';
    this.documentationUrl = 'https://example.com';
    this.properties = [
      { displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
      { displayName: 'API Key', name: 'apiKey', type: 'string', typeOptions: { password: true }, default: '' },
    ];
    this.authenticate = { type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } } };
    this.test = { request: { baseURL: '={{$credentials.baseUrl}}', url: '/account', method: 'GET' } };
  }
}
exports.HarnessApi = HarnessApi;
`,
	);
	w(
		'dist/nodes/Harness/Harness.node.js',
		`"use strict";
const { NodeConnectionTypes } = require('n8n-workflow'); // peer dependency, resolved from n8n itself
class Harness {
  constructor() {
    this.description = {
      displayName: 'Harness', name: 'harness', icon: 'file:harness.svg', group: ['transform'], version: 1,
      description: 'Harness test node', defaults: { name: 'Harness' },
      inputs: [NodeConnectionTypes.Main], outputs: [NodeConnectionTypes.Main],
      credentials: [{ name: 'harnessApi', required: true }],
      requestDefaults: { baseURL: '={{$credentials.baseUrl}}', headers: { Accept: 'application/json' } },
      properties: [{
        displayName: 'Operation', name: 'operation', type: 'options', noDataExpression: true, default: 'echo',
        options: [
          { name: 'Get Account', value: 'getAccount', action: 'Get account', routing: { request: { method: 'GET', url: '/account' } } },
          { name: 'Echo', value: 'echo', action: 'Echo', routing: { request: { method: 'POST', url: '/echo', body: { text: '={{$parameter.text}}' } } } },
        ],
      }, { displayName: 'Text', name: 'text', type: 'string', default: 'hi', displayOptions: { show: { operation: ['echo'] } } }],
    };
  }
}
exports.Harness = Harness;
`,
	);
	w(
		'dist/nodes/Harness/harness.svg',
		'<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><rect width="60" height="60" fill="#36f"/></svg>\n',
	);
}

async function startApi(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
	const hits: string[] = [];
	const srv = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString()));
		req.on('end', () => {
			hits.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
			const send = (code: number, obj: unknown) => {
				res.writeHead(code, { 'content-type': 'application/json' });
				res.end(JSON.stringify(obj));
			};
			if (req.headers.authorization !== `Bearer ${RIGHT_KEY}`) return send(401, { error: 'invalid api key' });
			if (req.method === 'GET' && req.url === '/account') return send(200, { id: 1, name: 'harness' });
			if (req.method === 'POST' && req.url === '/echo') return send(200, { echoed: JSON.parse(body || '{}') });
			return send(404, { error: 'not found' });
		});
	});
	await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
	const addr = srv.address();
	const port = typeof addr === 'object' && addr ? addr.port : 0;
	return { url: `http://127.0.0.1:${port}`, hits, close: async () => await new Promise<void>((r) => srv.close(() => r())) };
}

function check(cond: unknown, msg: string): void {
	if (!cond) throw new Error(`CHECK FAILED: ${msg}`);
	console.log(`ok - ${msg}`);
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
	const t = Date.now();
	const r = await fn();
	console.log(`   (${label}: ${((Date.now() - t) / 1000).toFixed(1)} s)`);
	return r;
}

async function main(): Promise<void> {
	const runtime = getRuntime({ install: process.argv.includes('--install') });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-harness-pkg-'));
	writeTinyPackage(path.join(work, 'pkg'));
	const api = await startApi();
	const sb = await createSandbox({ runtime });
	let server: N8nServer | undefined;
	try {
		const tgz = await timed('npm pack', async () => await packPackage(path.join(work, 'pkg'), work));
		const inst = await installPackage(sb, tgz);
		check(fs.existsSync(path.join(sb.nodeModulesDir, 'n8n-nodes-harnesstest', 'package.json')), `installed to ${inst.dir}`);

		const nodes = await timed('export:nodes', async () => await exportNodes(sb, 'n8n-nodes-harnesstest.'));
		check(nodes.some((n) => n.name === 'n8n-nodes-harnesstest.harness'), 'export:nodes lists n8n-nodes-harnesstest.harness');

		await timed('import:credentials', async () =>
			await importCredentials(sb, [
				{ id: 'harnessCredOk01', name: 'Harness right', type: 'harnessApi', data: { baseUrl: api.url, apiKey: RIGHT_KEY } },
				{ id: 'harnessCredBad1', name: 'Harness wrong', type: 'harnessApi', data: { baseUrl: api.url, apiKey: 'nope' } },
			]),
		);
		const wf = (id: string, credId: string, operation: string) => ({
			id,
			name: `harness ${id}`,
			active: false,
			settings: {},
			nodes: [
				{ id: 'n1', name: 'Manual', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{
					id: 'n2',
					name: 'Harness',
					type: 'n8n-nodes-harnesstest.harness',
					typeVersion: 1,
					position: [220, 0],
					parameters: { operation, text: 'hello' },
					credentials: { harnessApi: { id: credId, name: 'x' } },
				},
			],
			connections: { Manual: { main: [[{ node: 'Harness', type: 'main', index: 0 }]] } },
		});
		await timed('import:workflow', async () =>
			await importWorkflows(sb, [wf('harnessWfOk00001', 'harnessCredOk01', 'echo'), wf('harnessWfBad0001', 'harnessCredBad1', 'getAccount')]),
		);

		const ok = await timed('execute ok', async () => await executeWorkflow(sb, 'harnessWfOk00001'));
		check(ok.ok && ok.code === 0, `execute succeeded (status ${ok.run?.status})`);
		check(JSON.stringify(ok.outputs.Harness) === JSON.stringify([{ json: { echoed: { text: 'hello' } }, pairedItem: { item: 0 } }]), `output ${JSON.stringify(ok.outputs.Harness)}`);

		const bad = await timed('execute bad', async () => await executeWorkflow(sb, 'harnessWfBad0001'));
		check(!bad.ok && bad.code !== 0 && bad.run?.status === 'error', `execute with wrong key fails (exit ${bad.code}, status ${bad.run?.status})`);
		check(/Authorization failed/.test(bad.errorMessage ?? ''), `error message: ${bad.errorMessage}`);

		server = await timed('n8n start until /healthz/readiness', async () => await startServer(sb));
		const session = await timed('owner setup', async () => await setupOwner(server as N8nServer));
		const relogin = await login(server, DEFAULT_OWNER);
		check(relogin.cookie.startsWith('n8n-auth='), 'login returns an n8n-auth cookie');

		const types = await session.request<{ data: unknown }>('GET', '/rest/credentials');
		check(types.status === 200 && JSON.stringify(types.body).includes('harnessCredOk01'), 'imported credentials visible to the owner');

		const right = await timed('credential test (right)', async () => await relogin.testCredential({ id: 'harnessCredOk01' }));
		check(right.status === 'OK', `credential test right key -> ${JSON.stringify(right)}`);
		const wrongStored = await session.testCredential({ id: 'harnessCredBad1' });
		check(wrongStored.status === 'Error', `credential test stored wrong key -> ${JSON.stringify(wrongStored)}`);
		const wrongOverride = await session.testCredential({ id: 'harnessCredOk01', dataOverride: { apiKey: 'wrong' } });
		check(wrongOverride.status === 'Error', `credential test with overridden wrong key -> ${JSON.stringify(wrongOverride)}`);

		const created = await session.createCredential({ name: 'via REST', type: 'harnessApi', data: { baseUrl: api.url, apiKey: RIGHT_KEY } });
		const viaRest = await session.testCredential({ id: created.id });
		check(viaRest.status === 'OK', `credential created via REST tests OK -> ${JSON.stringify(viaRest)}`);
		console.log(`api hits:\n  ${api.hits.join('\n  ')}`);
		console.log('ALL OK');
	} catch (e) {
		if (server) console.error(`--- n8n server log (tail) ---\n${server.logs().slice(-4000)}`);
		throw e;
	} finally {
		if (server) await timed('server stop', async () => await (server as N8nServer).stop());
		await api.close();
		if (!process.env.KEEP_SANDBOX) await removeSandbox(sb);
		else console.log(`sandbox kept: ${sb.userFolder}`);
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((e: unknown) => {
	console.error(e);
	process.exit(1);
});
