/**
 * `npm run test:ui`: the package in the REAL n8n editor (2.41.1), driven by a headless Chromium.
 *
 *   build -> npm pack -> README's install in a fresh sandbox (the e2e's harness: checks.ts) -> the bundled
 *   phpRank test server + a credential for it -> `n8n start`, owner -> one workflow with a phpRank node per
 *   operation and a phpRank Trigger per event (read from the node descriptions n8n loaded, so new operations
 *   and events are covered without editing this file) -> Chromium (Debian's, /usr/bin/chromium, through
 *   playwright-core; never a downloaded browser), window 1400x900, signed in as the owner.
 *
 * Checks: CHECKS below (each one alone: `npm run test:ui -- --only rows`, several: `--only rows,error`);
 * NOTES.md, "Editor check", says how they read the editor.
 *
 * Screenshots (and the page's HTML when a check fails) go to UI_SHOTS_DIR (CI keeps .ci/run's) or a
 * temporary folder, printed at the start and the end; it is kept. Prints one PASS/FAIL line per check, the timings and "<N> passed, <M> failed";
 * exit 1 on any failure.
 *
 * Options: --only <check>[,<check>…]   --list (the checks and the operations/events found, then exit)
 * Env: CHROMIUM_PATH (default /usr/bin/chromium), N8N_CACHE_DIR, KEEP_SANDBOX=1 (keep the n8n folder and
 *      leave n8n running until Ctrl+C, to look at it with a browser), UI_TIMEOUT_MS (one wait, default 30000).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

import { USER_IDS } from '../../../test/server';
import { loadExample, PHPRANK_CRED, seedServer, testServerCredential } from '../checks';
import { FORM_EXAMPLE, publishFormExample, visitForm } from '../form';
import { addOption, checkOptionsPanel, credentialLabels, type DomElement, TIMEOUT } from './panel';
import { checkPanelEdits, EDIT_NODES, EDIT_PARAMETERS, savedAs } from './panelEdits';
import {
	DEFAULT_OWNER,
	importCredentials,
	setupOwner,
	startServer,
	type ExportedNodeType,
	type RestSession,
} from '../n8n';
import { Fatal, same } from '../report';
import { saveWorkflow } from '../rest';
import { Suite } from '../suite';
import {
	manualTrigger,
	node,
	NODE_TYPE,
	phpRank,
	TRIGGER_TYPE,
	workflow,
	type Link,
	type WorkflowJson,
} from '../workflow';

const CHECKS = {
	panels:
		"every operation's panel and the trigger's panel for every event open; each action panel labels its two credential fields by what each is for, not \"Credential\" twice; the trigger's request notice reads as sentences",
	rows: 'Get Many (Limit 10, Simplify): eight of ten reports fit whole on one screen in the Table view',
	get: 'Get (By ID) returns the report; its row fits in the Table view',
	error: 'a local input error shows no "From phpRank" section',
	filter: 'an added Result filter picks no value',
	byurl: 'the Report picker resolves a report link (By URL)',
	sample:
		"the trigger's test events (Report Result Changed, Score Changed) have no empty change fields",
	rerun:
		'Create or Re-Run of 10 pages, after a re-run: eight of ten rows fit whole on one screen; the site summary: one row, held to a height limit',
	form: 'the audit form example filled and submitted in Chromium: the ending page shows the score',
	groups:
		'Create or Re-Run (One Item per Site): a page group with a budget rule and a Default Budget rule added in the panel are saved; Get Health offers both fields',
	edits:
		"two page groups (a Regular Expression one with Checks That Must Pass) reordered by drag and kept after a reload; a bad pattern refused beside it; competitors as a list and an expression; Get Health's Compare With from the list",
} as const;
type CheckName = keyof typeof CHECKS;

const WINDOW = { width: 1400, height: 900 };
/**
 * The site item's row in the Table view (Simplify on, 10 pages, defaults): the most it may be high, in px.
 * Measured on 2.41.1: 603 (summary_text the tallest cell); 3,141 with summary_html and full lists.
 */
const SITE_ROW_MAX = 650;
const ROWS_WANTED = 10;
/**
 * How many of those ten rows must show whole on the first screen. Ten until issue 37 put
 * `top_failed_checks` (about 70 characters: `title (high), robots (medium), …`) on every Simplify
 * report: n8n wraps it in its narrow column, so rows are 45-99 px high. Measured on 2.41.1: 8 of 10
 * (Get Many), 9 of 10 (Create or Re-Run). The field was asked for in the Simplify form, for Sheets.
 */
const ROWS_ON_SCREEN = 8;
/** The report the By URL check links to (seeded below for the test server's default user). */
const LINKED_REPORT = 12;
const GET_REPORT = 2;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** n8n's editor's data-test-id attributes (2.41.1, checked in its bundle), never CSS classes (hashed per build). */
const SEL = {
	signinForm: '[data-test-id="signin-form"]',
	email: 'input[name="emailOrLdapLoginId"]',
	password: 'input[name="password"]',
	submit: '[data-test-id="form-submit-button"]',
	ndv: '[data-test-id="ndv"]',
	/** "Execute step" / "Fetch Test Event" in the panel's parameter pane */
	execute: '[data-test-id="node-execute-button"]',
	output: '[data-test-id="output-panel"]',
	itemsCount: '[data-test-id="ndv-items-count"]',
	dataContainer: '[data-test-id="ndv-data-container"]',
	tableMode: '[data-test-id="ndv-run-data-display-mode"] [data-test-id="radio-button-table"]',
	errorMessage: '[data-test-id="node-error-message"]',
	param: (name: string) => `[data-test-id="parameter-input-${name}"]`,
	/** a `collection` parameter's "Add Filter"/"Add Option" dropdown */
	collectionAdd: '[data-test-id="collection-parameter-add"]',
	/** a resourceLocator parameter, its mode dropdown and its value input */
	locator: (name: string) => `[data-test-id="resource-locator-${name}"]`,
	locatorMode: '[data-test-id="rlc-mode-selector"]',
	locatorInput: '[data-test-id="rlc-input"]',
	/** the modes in the open mode dropdown: data-test-id="mode-<mode name>" (mode-list, mode-id, …) */
	locatorModes: '[data-test-id^="mode-"]:visible',
	/** a node on the canvas (vue-flow's own class and attribute, not hashed) */
	canvasNode: (id: string) => `.vue-flow__node[data-id="${id}"]`,
	/** a node error's "Error details" sections (<details><summary>From phpRank</summary>…) */
	errorSection: 'details',
	parameterIssues: '[data-test-id="parameter-issues"]',
} as const;

const suite = new Suite('ui', { pass: 'PASS' });
const { check, section, note, timed } = suite;

// ------------------------------------------------------------------ arguments

function parseOnly(argv: string[]): CheckName[] {
	const all = Object.keys(CHECKS) as CheckName[];
	const i = argv.indexOf('--only');
	const inline = argv.find((a) => a.startsWith('--only='));
	const value = inline ? inline.slice('--only='.length) : i === -1 ? undefined : argv[i + 1];
	if (i !== -1 && value === undefined) usage('--only needs a check name');
	if (!value) return all;
	const picked = value
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	const unknown = picked.filter((p) => !all.includes(p as CheckName));
	if (unknown.length || !picked.length) usage(`unknown check: ${unknown.join(', ') || '(none)'}`);
	return all.filter((c) => picked.includes(c));
}

function usage(message: string): never {
	console.error(
		`${message}\nusage: npm run test:ui -- [--only <check>[,<check>...]] [--list]\nchecks:`,
	);
	for (const [name, what] of Object.entries(CHECKS)) console.error(`  ${name.padEnd(7)} ${what}`);
	process.exit(2);
}

// ------------------------------ what to open: read from the node descriptions n8n loaded

interface Option {
	name: string;
	value: string;
}

interface Panel {
	/** node name on the canvas, e.g. "Report Get Many", "phpRank Trigger: Report Result Changed" */
	node: string;
	type: string;
	/** what the panel must show: the parameter (operation / event) and the option's display name */
	shows: { param: string; option: string };
	parameters: Record<string, unknown>;
	file: string;
}

function optionsOf(prop: Record<string, unknown> | undefined): Option[] {
	const opts = (prop?.options ?? []) as Array<{ name?: unknown; value?: unknown }>;
	return opts
		.filter(
			(o) =>
				typeof o.name === 'string' && (typeof o.value === 'string' || typeof o.value === 'number'),
		)
		.map((o) => ({ name: String(o.name), value: String(o.value) }));
}

function slug(s: string): string {
	return s
		.replace(/[^a-zA-Z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.toLowerCase();
}

/** One panel per (resource, operation) of phpRank and per event of the trigger. */
export function panelsFrom(nodes: ExportedNodeType[]): Panel[] {
	const action = nodes.find((n) => n.name === NODE_TYPE);
	const trigger = nodes.find((n) => n.name === TRIGGER_TYPE);
	if (!action || !trigger) throw new Fatal(`n8n did not load ${NODE_TYPE} and ${TRIGGER_TYPE}`);
	const panels: Panel[] = [];
	const resources = optionsOf(action.properties.find((p) => p.name === 'resource'));
	for (const resource of resources) {
		const operationProps = action.properties.filter((p) => {
			const show = (p.displayOptions as { show?: { resource?: unknown[] } } | undefined)?.show;
			return (
				p.name === 'operation' &&
				Array.isArray(show?.resource) &&
				show.resource.includes(resource.value)
			);
		});
		for (const op of operationProps.flatMap(optionsOf)) {
			const node = `${resource.name} ${op.name}`;
			panels.push({
				node,
				type: NODE_TYPE,
				shows: { param: 'operation', option: op.name },
				parameters: { resource: resource.value, operation: op.value },
				file: `panel-${slug(node)}.png`,
			});
		}
	}
	const triggerName = String(
		(trigger.defaults as { name?: string } | undefined)?.name ?? trigger.displayName,
	);
	for (const ev of optionsOf(trigger.properties.find((p) => p.name === 'event'))) {
		const node = `${triggerName}: ${ev.name}`;
		panels.push({
			node,
			type: TRIGGER_TYPE,
			shows: { param: 'event', option: ev.name },
			parameters: { event: ev.value },
			file: `panel-trigger-${slug(ev.value)}.png`,
		});
	}
	return panels;
}

const TRIGGER_NAME = 'When clicking ‘Execute workflow’';
/**
 * Nodes of the single-purpose checks. Each has a workflow of its own: a tab that changed a workflow holds
 * n8n's edit lock on it for a while after it closed, and the next tab would get the workflow read-only; and a
 * step run in a workflow broke Execute step of the next node opened by the router there (Ui.openPanel).
 */
const CHECK_NODES = {
	rows: 'Check: Get Many, Limit 10',
	get: 'Check: Get by ID',
	error: 'Check: Create with a bad URL',
	filter: 'Check: Get Many filters',
	byurl: 'Check: Get by URL',
	sample: 'Check: trigger sample',
	rerun: 'Check: Create or Re-Run, 10 pages',
	summary: 'Check: Create or Re-Run, site summary',
	groups: 'Check: Page Groups',
	form: 'Show the score',
} as const;
/** The rerun check's input: a Code node that makes ten page URLs of one site. */
const TEN_URLS = 'Ten pages of a site';
/** The sample check's second trigger, in a workflow of its own: Score Changed. */
const SCORE_SAMPLE_NODE = 'Check: trigger sample (Score Changed)';

/** A workflow: a Manual Trigger wired to every phpRank node, and the given trigger nodes on their own. */
function workflowOf(
	name: string,
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>,
): WorkflowJson {
	const placed = nodes.map((n, i) =>
		node(n.name, n.type, n.parameters, {
			position: n.type === TRIGGER_TYPE ? [0, 200 * (i + 1)] : [300, 200 * i],
			credentials: { phpRankApi: PHPRANK_CRED },
		}),
	);
	const actions = nodes.filter((n) => n.type === NODE_TYPE);
	return workflow(
		'',
		name,
		[manualTrigger(TRIGGER_NAME), ...placed],
		actions.map((n): Link => [TRIGGER_NAME, n.name]),
	);
}

const report = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'report',
	operation,
	...extra,
});
/** A single-purpose check's workflow: one node, a phpRank action unless `type` says otherwise. */
const checkWorkflow = (check: CheckName, name: string, parameters: object, type = NODE_TYPE) =>
	workflowOf(`phpRank test:ui: ${check}`, [{ name, type, parameters: { ...parameters } }]);

/** The workflows to create: every panel in one, each check's nodes in their own. */
function buildWorkflows(panels: Panel[]): WorkflowJson[] {
	const tenUrls = `Array.from({ length: ${ROWS_WANTED} }, (_, i) => 'https://rows.example.com/page-' + (i + 1))`;
	const reportId = { __rl: true, mode: 'id', value: String(GET_REPORT) };
	return [
		workflowOf(
			'phpRank: every panel (test:ui)',
			panels.map((p) => ({ name: p.node, type: p.type, parameters: p.parameters })),
		),
		checkWorkflow(
			'rows',
			CHECK_NODES.rows,
			report('getAll', { returnAll: false, limit: ROWS_WANTED, simplify: true }),
		),
		checkWorkflow('get', CHECK_NODES.get, report('get', { reportId, simplify: true })),
		checkWorkflow('error', CHECK_NODES.error, report('create', { url: 'not a url' })),
		checkWorkflow(
			'filter',
			CHECK_NODES.filter,
			report('getAll', { returnAll: false, limit: ROWS_WANTED }),
		),
		checkWorkflow('byurl', CHECK_NODES.byurl, report('get', { simplify: true })),
		checkWorkflow(
			'groups',
			CHECK_NODES.groups,
			report('createOrRerun', { url: 'https://example.com/', output: 'sites' }),
		),
		...Object.entries(EDIT_NODES).map(([key, name]) =>
			checkWorkflow('edits', name, EDIT_PARAMETERS[key as keyof typeof EDIT_NODES]),
		),
		checkWorkflow('sample', CHECK_NODES.sample, { event: 'resultChanged' }, TRIGGER_TYPE),
		checkWorkflow('sample', SCORE_SAMPLE_NODE, { event: 'scoreChanged' }, TRIGGER_TYPE),
		urlsWorkflow('rerun', TEN_URLS, tenUrls, CHECK_NODES.rerun, { simplify: true }),
		urlsWorkflow('rerun', TEN_URLS, tenUrls, CHECK_NODES.summary, {
			output: 'sites',
			simplify: true,
		}),
	];
}

const URL_OF_ITEM = '={{ $json.url }}';

/** Manual Trigger → a Code node that makes one item per URL of `urls` (a JS expression) → a private audit of each. */
function urlsWorkflow(
	check: CheckName,
	code: string,
	urls: string,
	audit: string,
	parameters: Record<string, unknown>,
): WorkflowJson {
	const jsCode = `return ${urls}.map((url) => ({ json: { url } }));`;
	return workflow(
		'',
		`phpRank test:ui: ${check}`,
		[
			manualTrigger(TRIGGER_NAME),
			node(code, 'n8n-nodes-base.code', { jsCode }, { typeVersion: 2, position: [220, 0] }),
			phpRank(
				audit,
				report('createOrRerun', { url: URL_OF_ITEM, privacy: 1, ...parameters }),
				PHPRANK_CRED,
			),
		],
		[
			[TRIGGER_NAME, code],
			[code, audit],
		],
	);
}

/** Where a node lives: its workflow's id and its own. */
type NodeTargets = Map<string, { workflowId: string; nodeId: string }>;

// ------------------------------------------------------------------ the browser

class Ui {
	private shot = 0;
	constructor(
		readonly context: BrowserContext,
		readonly baseUrl: string,
		/** the phpRank test server */
		readonly apiUrl: string,
		readonly targets: NodeTargets,
		readonly shots: string,
	) {}

	/** The tab the checks share: a tab of its own would load the editor again (8-28 s a load). */
	tab?: Page;

	/**
	 * The node's panel open in the shared tab: by the editor's own router once the editor is loaded (0.5-3 s
	 * instead of a page load), first to the workflow (closes the open panel; the canvas shows the node once the
	 * workflow is loaded), then to the node (/workflow/:id/:nodeId opens its panel). Each check that runs a
	 * step has a workflow of its own: in a workflow where a step ran, Execute step of another node reached so
	 * failed ("Cannot read properties of null"). Loaded when the tab shows no workflow (new, or after a failure):
	 * from the home page the router's push to a workflow hung (no navigation in 30 s).
	 */
	async openPanel(node: string): Promise<Page> {
		const target = this.targets.get(node);
		if (!target) throw new Error(`no node "${node}" in the test workflows`);
		if (!this.tab || this.tab.isClosed()) {
			this.tab = await this.context.newPage();
			// leaving a workflow n8n has not autosaved yet: the edit is read back by REST, never by a leave
			this.tab.on('dialog', (d) => void d.accept());
		}
		const p = this.tab;
		const workflow = `/workflow/${target.workflowId}`;
		const inEditor = p.url().startsWith(`${this.baseUrl}/workflow/`);
		if (inEditor) {
			await routeTo(p, workflow);
			await p.locator(SEL.ndv).waitFor({ state: 'hidden', timeout: TIMEOUT });
			await p.locator(SEL.canvasNode(target.nodeId)).waitFor({ timeout: TIMEOUT });
			await routeTo(p, `${workflow}/${target.nodeId}`);
		} else await p.goto(`${this.baseUrl}${workflow}/${target.nodeId}`);
		// A whole load (the first panel, or after a failed one) fetches the editor and every node type: on a loaded
		// 2-core CI machine the first one passed 30 s once (its sign-in took 19 s), its panel open a moment later.
		const timeout = inEditor ? TIMEOUT : 3 * TIMEOUT;
		await p.locator(SEL.ndv).waitFor({ timeout });
		// the parameters render after the node type is fetched
		await p.locator(`${SEL.ndv} [data-test-id="parameter-item"]`).first().waitFor({ timeout });
		return p;
	}

	/**
	 * `fn` in the shared tab with the node's panel open; its evidence kept when `fn` answers false (a check
	 * failed). A throw leaves the tab for main's evidence.
	 */
	async inPanel(node: string, label: string, fn: (page: Page) => Promise<boolean>): Promise<void> {
		const page = await this.openPanel(node);
		if (!(await fn(page))) await this.evidence(page, label);
	}

	/** Screenshot of the window into the shots folder; returns the file name. */
	async screenshot(page: Page, file: string): Promise<string> {
		const name = file.endsWith('.png')
			? file
			: `${String(++this.shot).padStart(2, '0')}-${file}.png`;
		await page.screenshot({ path: path.join(this.shots, name) });
		return name;
	}

	/** Screenshot + HTML of the page, for a failed check. */
	async evidence(page: Page, label: string): Promise<void> {
		try {
			const png = await this.screenshot(page, `${slug(label)}-failed`);
			const html = png.replace(/\.png$/, '.html');
			fs.writeFileSync(path.join(this.shots, html), await page.content());
			note(`evidence: ${png}, ${html}`);
		} catch (e) {
			note(`no evidence: ${(e as Error).message}`);
		}
	}
}

/**
 * The editor's own router to `to` (NodeView opens, or closes, the panel as the route's nodeId changes). Leaving a
 * workflow changed and not saved yet asks first ("Save changes before leaving?"): left without saving (what n8n
 * autosaved is read back by REST, never by a leave).
 */
async function routeTo(page: Page, to: string): Promise<void> {
	type App = { config: { globalProperties: { $router: { push(to: string): Promise<unknown> } } } };
	await page.evaluate(async (path) => {
		const { document } = globalThis as unknown as { document: DomElement };
		const app = document.querySelector('#app') as unknown as { __vue_app__?: App } | null;
		if (!app?.__vue_app__) throw new Error('no n8n editor app in the page');
		const asked = new Promise((resolve) => setTimeout(resolve, 3_000));
		await Promise.race([app.__vue_app__.config.globalProperties.$router.push(path), asked]);
		// in the page, not by a locator: a call less per route (each 1-2 s at a load of 13)
		const buttons = Array.from(document.querySelectorAll('.el-message-box button'));
		const leave = buttons.find((b) => (b.textContent ?? '').trim() === 'Leave without saving');
		(leave as unknown as { click(): void } | undefined)?.click();
	}, to);
}

async function signIn(context: BrowserContext, baseUrl: string): Promise<void> {
	const page = await context.newPage();
	await page.goto(`${baseUrl}/signin`);
	await page.locator(SEL.signinForm).waitFor({ timeout: TIMEOUT });
	await page.fill(SEL.email, DEFAULT_OWNER.email);
	await page.fill(SEL.password, DEFAULT_OWNER.password);
	await page.click(SEL.submit);
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: TIMEOUT });
	await page.close();
}

/** Runs the panel's Execute step / Fetch Test Event and waits for the output (items or an error). */
async function execute(page: Page): Promise<Locator> {
	await page.locator(`${SEL.ndv} ${SEL.execute}`).first().click();
	const out = page.locator(SEL.output);
	await out.locator(`${SEL.itemsCount}, ${SEL.errorMessage}`).first().waitFor({ timeout: TIMEOUT });
	return out;
}

async function itemsShown(out: Locator): Promise<number | undefined> {
	const text = await out
		.locator(SEL.itemsCount)
		.first()
		.innerText()
		.catch(() => '');
	const m = /(\d+)\s+items?/.exec(text);
	return m ? Number(m[1]) : undefined;
}

interface TableMeasure {
	/** visible part of the output's data area (in the window) */
	visible: { top: number; bottom: number };
	/** each row's cells; `heights`: each cell's content height (px), which makes the row's */
	rows: Array<{ top: number; bottom: number; cells: string[]; heights: number[] }>;
	headers: string[];
	fullyVisible: number;
}

/** Switches the output to Table and measures its rows (the top-level table's body rows) in the window. */
async function measureTable(page: Page): Promise<TableMeasure> {
	const out = page.locator(SEL.output);
	await out.locator(SEL.tableMode).click();
	await out.locator(`${SEL.dataContainer} table`).first().waitFor({ timeout: TIMEOUT });
	await page.waitForTimeout(300); // layout settles (column widths)
	return await out
		.locator(SEL.dataContainer)
		.first()
		.evaluate((el: unknown, height) => {
			const container = el as DomElement;
			const box = container.getBoundingClientRect();
			const visible = { top: Math.max(box.top, 0), bottom: Math.min(box.bottom, height) };
			const table = container.querySelector('table');
			const rows = table ? Array.from(table.querySelectorAll(':scope > tbody > tr')) : [];
			const headers = table
				? Array.from(table.querySelectorAll(':scope > thead > tr > th')).map((th) =>
						(th.textContent ?? '').trim(),
					)
				: [];
			const measured = rows.map((r) => {
				const b = r.getBoundingClientRect();
				const tds = Array.from(r.querySelectorAll(':scope > td'));
				const cells = tds.map((td) => (td.textContent ?? '').trim().slice(0, 80));
				const heights = tds.map((td) =>
					Math.round(
						Math.max(
							0,
							...Array.from(td.children).map((c) => {
								const cb = c.getBoundingClientRect();
								return cb.bottom - cb.top;
							}),
						),
					),
				);
				return { top: Math.round(b.top), bottom: Math.round(b.bottom), cells, heights };
			});
			const fullyVisible = measured.filter(
				(r) => r.top >= visible.top - 1 && r.bottom <= visible.bottom + 1,
			).length;
			return {
				visible: { top: Math.round(visible.top), bottom: Math.round(visible.bottom) },
				rows: measured,
				headers,
				fullyVisible,
			};
		}, WINDOW.height);
}

/** The first row's id column, as the Table view shows it. */
const idOf = (m: TableMeasure) => m.rows[0]?.cells[m.headers.indexOf('id')];

/**
 * The output's items as the Table view shows them: column -> cell text. (The JSON view renders only the
 * lines in sight: a virtual list.) An empty value shows as an empty cell, null as "null".
 */
async function tableItems(page: Page): Promise<Array<Record<string, string>>> {
	const m = await measureTable(page);
	return m.rows.map((r) =>
		Object.fromEntries(
			m.headers.map((h, i) => [h, r.cells[i] ?? ''] as const).filter(([h]) => h !== ''),
		),
	);
}

// ------------------------------------------------------------------ the checks

type CheckFn = (ui: Ui) => Promise<void>;

const checks = (
	panels: Panel[],
	credentials: string[],
	session: RestSession,
): Record<CheckName, CheckFn> => ({
	panels: async (ui) => await checkPanelsOpen(ui, panels, credentials),
	rows: checkGetManyRowsFit,
	get: checkGetByIdRowFits,
	error: checkLocalInputError,
	filter: checkResultFilterPicksNothing,
	byurl: checkReportPickerByUrl,
	sample: checkTriggerSamples,
	rerun: checkRerunRowsFit,
	groups: async (ui) => await checkPageGroups(ui, session),
	edits: async (ui) => await checkPanelEdits(ui, session, suite),
	form: async (ui) =>
		await checkFormExample(
			ui,
			(await publishFormExample(session, loadExample(FORM_EXAMPLE.file))).formUrl,
		),
});

/**
 * Every operation's panel and the trigger's panel for every event open, one after another in one tab; each
 * action panel's credential fields labelled as `credentials`; the trigger's request notice reads as sentences.
 */
async function checkPanelsOpen(ui: Ui, panels: Panel[], credentials: string[]): Promise<void> {
	note(`the node's credentials as n8n loaded them: ${credentials.map((c) => `"${c}"`).join(', ')}`);
	check(
		'the node names each credential for what it is: distinct displayNames, none "Credential"',
		credentials.length === 2 &&
			new Set(credentials).size === 2 &&
			credentials.every((c) => c !== '' && c !== 'Credential'),
		credentials,
	);
	for (const p of panels) {
		try {
			const page = await ui.openPanel(p.node);
			const value = await page
				.locator(`${SEL.ndv} ${SEL.param(p.shows.param)} input`)
				.first()
				.inputValue({ timeout: TIMEOUT });
			const labels = p.type === NODE_TYPE ? await credentialLabels(page) : undefined;
			await ui.screenshot(page, p.file);
			check(
				`panel "${p.node}" opens and shows ${p.shows.param} "${p.shows.option}" (${p.file})`,
				value === p.shows.option,
				`shown: "${value}"`,
			);
			if (labels)
				check(
					`panel "${p.node}": its credential fields are labelled ${labels.map((l) => `"${l}"`).join(' and ')} (${p.file})`,
					same(labels, credentials),
					{ shown: labels, expected: credentials },
				);
			if (p.type === TRIGGER_TYPE && p.parameters.event !== 'newReport') {
				// n8n shows a notice as one block: its sentences must not run together ("…requests).phpRank allows…").
				const notice = (
					await page
						.locator(`${SEL.ndv} .notice`, { hasText: 'Each poll reads' })
						.first()
						.innerText({ timeout: TIMEOUT })
				).trim();
				check(
					`panel "${p.node}": the request notice's sentences are separated by spaces`,
					notice.includes(
						'(10 requests). phpRank allows 60 requests a minute per user. More reports',
					) && !/[.)][A-Za-z]/.test(notice),
					notice,
				);
			}
		} catch (e) {
			check(`panel "${p.node}" opens`, false, (e as Error).message.split('\n')[0]);
			if (!ui.tab) continue;
			await ui.evidence(ui.tab, `panel ${p.node}`);
			await ui.tab.goto('about:blank'); // the next panel from a fresh load
		}
	}
}

/** At least ROWS_ON_SCREEN of the ROWS_WANTED rows of `what`'s Table view show whole on one screen. */
function rowsFit(m: TableMeasure, what: string, asGetMany = ''): boolean {
	const heights = m.rows.map((r) => r.bottom - r.top);
	note(
		`${what} Table view: ${m.rows.length} rows, heights ${heights.join(', ')} px; the output's data area shows y=${m.visible.top}..${m.visible.bottom} (${m.visible.bottom - m.visible.top} px) in the ${WINDOW.width}x${WINDOW.height} window; columns: ${m.headers.join(', ')}`,
	);
	return check(
		`Table view${asGetMany}: at least ${ROWS_ON_SCREEN} of the ${ROWS_WANTED} rows fit on one screen${asGetMany && ", as Get Many's do"} (fully visible rows >= ${ROWS_ON_SCREEN})`,
		m.fullyVisible >= ROWS_ON_SCREEN,
		`${m.fullyVisible} of ${m.rows.length} rows fully visible; tallest row ${Math.max(0, ...heights)} px, a row may be at most ${Math.floor((m.visible.bottom - m.visible.top) / ROWS_WANTED)} px`,
	);
}

/** Get Many (Limit 10, Simplify) run in its panel: ten items, all ten rows fit in the Table view */
async function checkGetManyRowsFit(ui: Ui): Promise<void> {
	await ui.inPanel(CHECK_NODES.rows, 'rows', async (page) => {
		const items = await itemsShown(await execute(page));
		check(
			`Get Many (Limit ${ROWS_WANTED}, Simplify) returns ${ROWS_WANTED} reports`,
			items === ROWS_WANTED,
			`output shows ${items ?? 'no'} items`,
		);
		const m = await measureTable(page);
		await ui.screenshot(page, 'rows-get-many-table');
		return rowsFit(m, 'Get Many');
	});
}

/** Get (By ID) run in its panel: the report comes out, its row fits in the Table view */
async function checkGetByIdRowFits(ui: Ui): Promise<void> {
	await ui.inPanel(CHECK_NODES.get, 'get', async (page) => {
		const items = await itemsShown(await execute(page));
		const m = await measureTable(page);
		await ui.screenshot(page, 'get-table');
		const id = idOf(m);
		const ok = check(
			`Get (By ID ${GET_REPORT}) returns report ${GET_REPORT}`,
			items === 1 && id === String(GET_REPORT),
			{ items, id, columns: m.headers },
		);
		const row = m.rows[0];
		const fits = check(
			'Table view: its row is fully visible',
			m.fullyVisible === 1,
			row
				? `row y=${row.top}..${row.bottom} (${row.bottom - row.top} px), visible area y=${m.visible.top}..${m.visible.bottom}`
				: 'no row',
		);
		return ok && fits;
	});
}

/** A local input error: its message shows, and no "From phpRank" section (nothing came from phpRank) */
async function checkLocalInputError(ui: Ui): Promise<void> {
	await ui.inPanel(CHECK_NODES.error, 'error', async (page) => {
		const out = await execute(page);
		const message = await out
			.locator(SEL.errorMessage)
			.first()
			.innerText({ timeout: TIMEOUT })
			.catch(() => '');
		check(
			'Create with URL "not a url" stops with the node\'s own message',
			/not a url/i.test(message) && /URL/.test(message),
			message,
		);
		// Error details: <details> sections, "From <node type>" (what the API answered: Error code, Full
		// message, Request) when the error has an httpCode, messages or data, and "Other info" always.
		const sections = out.locator(SEL.errorSection);
		await sections
			.filter({ hasText: 'Other info' })
			.first()
			.waitFor({ state: 'attached', timeout: TIMEOUT });
		const found = await sections.evaluateAll((els) =>
			els.map((el) => {
				const d = el as unknown as DomElement;
				const parts = Array.from(d.querySelectorAll('p, pre')).map((p) =>
					(p.textContent ?? '').trim(),
				);
				return {
					summary: (d.querySelector(':scope > summary')?.textContent ?? '').trim(),
					body: parts.join(' ').replace(/\s+/g, ' '),
				};
			}),
		);
		const from = found.find((f) => /^From\s/.test(f.summary));
		if (from)
			await sections
				.filter({ hasText: from.summary })
				.locator('summary')
				.first()
				.click()
				.catch(() => undefined);
		await ui.screenshot(page, 'error-local-input');
		note(`Error details sections: ${found.map((f) => f.summary).join(', ')}`);
		const code = /Error code\s*(\S+)/.exec(from?.body ?? '')?.[1];
		return check(
			'the error shows no "From phpRank" section and no "Error code: none" (nothing came from phpRank)',
			!from && code === undefined,
			from
				? `"${from.summary}" section shown${code ? `, Error code ${code}` : ''}: ${from.body.slice(0, 300)}`
				: undefined,
		);
	});
}

/** The Result filter, just added to Get Many's Filters, picks no value and sends none */
async function checkResultFilterPicksNothing(ui: Ui): Promise<void> {
	await ui.inPanel(CHECK_NODES.filter, 'filter', async (page) => {
		const filters = page.locator(`${SEL.ndv} [data-test-id="parameter-item"]`, {
			hasText: 'Filters',
		});
		await addOption(page, filters, 'Result');
		const input = page.locator(`${SEL.ndv} ${SEL.param('result')} input`).first();
		await input.waitFor({ timeout: TIMEOUT });
		const value = await input.inputValue();
		await ui.screenshot(page, 'filter-result-added');
		// Empty, or the explicit no-filter choice ("Any"): either way nothing is picked.
		const nothing = value.trim() === '' || /^any$/i.test(value.trim());
		const pass = check(
			'the Result filter, just added, has no value picked (empty or "Any")',
			nothing,
			`it shows "${value}"`,
		);
		// And it changes nothing: the list request carries no result filter.
		suite.api.clearRequests();
		await execute(page);
		const list = suite.api.requests.filter(
			(r) => r.method === 'GET' && r.path.endsWith('/api/v1/reports'),
		);
		return (
			check(
				'executing with the filter just added sends no result filter',
				list.length > 0 && list.every((r) => !('result' in r.query)),
				list.map((r) => r.rawQuery).join(' | ') || 'no list request',
			) && pass
		);
	});
}

/** The Report picker's By URL mode resolves a report link; Get returns that report */
async function checkReportPickerByUrl(ui: Ui): Promise<void> {
	await ui.inPanel(CHECK_NODES.byurl, 'byurl', async (page) => {
		const picker = page.locator(`${SEL.ndv} ${SEL.locator('reportId')}`);
		await picker.locator(SEL.locatorMode).click();
		const options = page.locator(SEL.locatorModes);
		await options.first().waitFor({ timeout: TIMEOUT });
		const modes = (await options.allInnerTexts()).map((t) => t.trim());
		const byUrl = page
			.locator('[data-test-id="mode-url"]:visible')
			.or(options.filter({ hasText: /\bURL\b/i }));
		await ui.screenshot(page, 'byurl-modes');
		if (
			!check(
				'the Report picker has a "By URL" mode',
				(await byUrl.count()) > 0,
				`its modes: ${modes.join(', ')}`,
			)
		)
			return false;
		await byUrl.first().click();
		const link = `${ui.apiUrl}/reports/${LINKED_REPORT}`;
		await picker.locator(`${SEL.locatorInput} input, input${SEL.locatorInput}`).first().fill(link);
		await page.keyboard.press('Tab');
		await page.waitForTimeout(300);
		const issues = await picker.locator(SEL.parameterIssues).count();
		check(
			`the link ${link.replace(ui.apiUrl, '<base URL>')} is accepted (no parameter issue)`,
			issues === 0,
			`${issues} issue markers`,
		);
		const out = await execute(page);
		const m = await measureTable(page);
		await ui.screenshot(page, 'byurl-resolved');
		const id = idOf(m);
		return check(
			`Get by that link returns report ${LINKED_REPORT}`,
			(await itemsShown(out)) === 1 && id === String(LINKED_REPORT),
			// read, not waited for: a wait for an error that is not there took 30 s of every pass
			{ id, error: (await out.locator(SEL.errorMessage).allInnerTexts())[0] },
		);
	});
}

/** The trigger's Fetch Test Event for both change events: no null/empty change fields */
async function checkTriggerSamples(ui: Ui): Promise<void> {
	// Both change events: every field an event carries is filled in the sample.
	const events = [
		{
			node: CHECK_NODES.sample,
			event: 'Report Result Changed',
			shot: 'sample-result-changed',
			always: ['previous_score', 'previous_result_class'],
		},
		{
			node: SCORE_SAMPLE_NODE,
			event: 'Score Changed',
			shot: 'sample-score-changed',
			always: ['previous_score', 'score_change', 'newly_failed', 'changes'],
		},
	];
	for (const { node, event, shot, always } of events)
		await ui.inPanel(node, `sample ${event}`, async (page) => {
			const out = await execute(page);
			const items = await itemsShown(out);
			const list = await tableItems(page);
			await ui.screenshot(page, shot);
			if (
				!check(
					`Fetch Test Event (${event}) shows a sample event`,
					items !== undefined && items > 0 && list.length > 0,
					{ items, rows: list.length },
				)
			)
				return false;
			note(`sample: ${JSON.stringify(list[0]).slice(0, 500)}`);
			// the change fields, and every previous_* / changes column the table shows
			const wanted = [
				...new Set([
					...always,
					...Object.keys(list[0]).filter((k) => /^previous_|^changes?$/.test(k)),
				]),
			];
			const empty = (v: string | undefined): boolean =>
				v === undefined || /^(|null|undefined|\[empty\]|\[null\]|\{\}|\[\])$/i.test(v.trim());
			const bad = list.flatMap((item, i) =>
				wanted
					.filter((k) => empty(item[k]))
					.map(
						(k) => `item ${i}: ${k} = ${k in item ? JSON.stringify(item[k]) : '(no such column)'}`,
					),
			);
			return check(
				`the ${event} sample has no null/empty change fields (${wanted.join(', ')})`,
				bad.length === 0,
				bad.join('; '),
			);
		});
}

/** Create or Re-Run run twice in its panel: the rows fit as Get Many's do; the site summary's one row is held to a height */
async function checkRerunRowsFit(ui: Ui): Promise<void> {
	// The pages have reports already (as after a first run), so the panel's run re-runs every one.
	const { api } = suite;
	// A week's re-run as it usually goes: the score moves a little, a check or two change.
	for (let i = 1; i <= ROWS_WANTED; i++) {
		const url = `https://rows.example.com/page-${i}`;
		const report = api.addReport({ url, user_id: USER_IDS.default, result: 70 });
		const [changed] = Object.entries(report.results).find(([, c]) => c.passed) ?? [];
		api.setNextAnalysis(url, {
			score: 70 - i,
			others: 'keep',
			...(changed ? { failed: [changed] } : {}),
		});
	}
	await ui.inPanel(CHECK_NODES.rerun, 'rerun rows', async (page) => {
		const second = await itemsShown(await execute(page));
		const m = await measureTable(page);
		await ui.screenshot(page, 'rows-create-or-rerun-table');
		const action = m.headers.indexOf('action');
		const reruns = m.rows.filter((r) => r.cells[action] === 'rerun').length;
		check(
			`Create or Re-Run of ${ROWS_WANTED} pages that have reports: ${ROWS_WANTED} items, every one a re-run`,
			second === ROWS_WANTED && reruns === ROWS_WANTED,
			{ items: second, reruns, columns: m.headers },
		);
		return rowsFit(m, 'Create or Re-Run', ' after a re-run');
	});
	await ui.inPanel(CHECK_NODES.summary, 'site summary row', async (sites) => {
		const items = await itemsShown(await execute(sites));
		const s = await measureTable(sites);
		await ui.screenshot(sites, 'rows-site-summary-table');
		const row = s.rows[0];
		const height = row ? row.bottom - row.top : 0;
		note(
			`site summary Table view: ${s.rows.length} row, ${height} px high; columns: ${s.headers.join(', ')}`,
		);
		// n8n wraps every cell (300 px at most) and truncates nothing: the tallest cell makes the row.
		const area = s.visible.bottom - s.visible.top;
		const tallest = (row?.heights ?? [])
			.map((h, i) => ({ column: s.headers[i], h }))
			.sort((a, b) => b.h - a.h)
			.slice(0, 4);
		note(
			`site summary rows per screen: ${height > 0 ? (area / height).toFixed(2) : '-'} (row ${height} px, data area ${area} px); tallest cells: ${tallest.map((c) => `${c.column} ${c.h} px`).join(', ')}`,
		);
		check(
			`the site summary's row is at most ${SITE_ROW_MAX} px high, within the ${area} px data area (summary_html only with E-Mail HTML; lists as text keep five)`,
			height > 0 && height <= Math.min(SITE_ROW_MAX, area),
			{ height, tallest },
		);
		return check(
			'the site summary: one item for the ten pages, its figures (project, pages, re-runs) in sight on the first screen',
			items === 1 &&
				row !== undefined &&
				row.top >= s.visible.top - 1 &&
				row.top + 40 <= s.visible.bottom &&
				row.cells[s.headers.indexOf('pages')] === String(ROWS_WANTED),
			{ items, row: row && { top: row.top, height }, visible: s.visible },
		);
	});
	await checkOptionsPanel(ui, CHECK_NODES.rerun, suite);
}

/** Page Groups as a user fills them in Create or Re-Run's panel: saved (n8n autosaves) as typed; Get Health has them too */
async function checkPageGroups(ui: Ui, session: RestSession): Promise<void> {
	const { workflowId } = ui.targets.get(CHECK_NODES.groups) ?? { workflowId: '' };
	await ui.inPanel(CHECK_NODES.groups, 'page groups', async (page) => {
		const ndv = page.locator(SEL.ndv);
		const fill = (name: string, value: string) =>
			ndv
				.locator(`${SEL.param(name)} input`)
				.first()
				.fill(value);
		await ndv.getByRole('button', { name: 'Add Page Group' }).first().click();
		await fill('name', 'Products');
		await fill('pattern', '/products/**');
		const collection = (label: string) =>
			ndv
				.locator('[data-test-id="parameter-item"]', { has: page.locator(SEL.collectionAdd) })
				.filter({ hasText: new RegExp(`^\\s*${label}`) })
				.last();
		for (const [label, rule, name, value] of [
			['Budget', 'Minimum Average Score', 'minAverageScore', '80'],
			['Default Budget', 'Maximum Bad Pages', 'maxBadPages', '2'],
		]) {
			await addOption(page, collection(label), rule);
			await fill(name, value);
			// Enter commits the number where it stands (Tab would focus, and open, the next Add Rule list).
			await page.keyboard.press('Enter');
		}
		await ui.screenshot(page, 'page-groups');
		const want = {
			pageGroups: {
				group: [{ name: 'Products', pattern: '/products/**', budget: { minAverageScore: 80 } }],
			},
			defaultBudget: { maxBadPages: 2 },
		};
		const got = await savedAs(
			session,
			{ workflowId, node: CHECK_NODES.groups },
			(params) => ({ pageGroups: params.pageGroups, defaultBudget: params.defaultBudget }),
			want,
			page,
		);
		return check(
			'a group "Products" (/products/**) with Minimum Average Score 80, and Default Budget\'s Maximum Bad Pages 2, added in the panel, are saved as typed',
			same(got, want),
			got,
		);
	});
	await ui.inPanel('Project Get Health', 'get health groups', async (page) => {
		const ndv = page.locator(SEL.ndv);
		// Waited for, not counted at once: the fields render a moment after the panel opens.
		const shown = async (field: Locator) =>
			await field
				.first()
				.waitFor({ timeout: TIMEOUT })
				.then(() => true)
				.catch(() => false);
		return check(
			"Project Get Health's panel offers Page Groups and Default Budget",
			(await shown(ndv.getByRole('button', { name: 'Add Page Group' }))) &&
				(await shown(
					ndv.locator('[data-test-id="parameter-item"]', { hasText: 'Default Budget' }),
				)),
		);
	});
}

/** The audit form example filled and submitted in Chromium: the ending page shows the score */
async function checkFormExample(ui: Ui, formUrl: string): Promise<void> {
	const { api } = suite;
	const shot = 'form-ending.png';
	const text = await visitForm(
		ui.context,
		formUrl,
		{ website: 'https://www.agency-client.example.com/', email: 'visitor@example.org' },
		path.join(ui.shots, shot),
		TIMEOUT,
	);
	const report = api.listReports().find((r) => r.url === 'agency-client.example.com');
	check(
		`the ending page shows the test server's score, ${report?.result ?? '?'} (${shot})`,
		report !== undefined && text.includes(`Your SEO score: ${report.result}/100`),
		text,
	);
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const only = parseOnly(argv);
	// UI_SHOTS_DIR: a folder kept after the run (.ci/run's, which CI uploads); else a temporary one.
	const kept = process.env.UI_SHOTS_DIR;
	if (kept) fs.mkdirSync(kept, { recursive: true });
	const shots = kept || fs.mkdtempSync(path.join(os.tmpdir(), 'phprank-ui-'));
	console.log(`screenshots: ${shots}`);
	console.log(`checks: ${only.join(', ')}`);
	if (!argv.includes('--list') && !fs.existsSync(CHROMIUM)) {
		throw new Fatal(
			`no Chromium at ${CHROMIUM}: apt-get install chromium (Debian), or set CHROMIUM_PATH`,
		);
	}

	suite.defer(() => console.log(`\nscreenshots: ${shots}`));
	const api = suite.api;
	const installed = await suite.packageSandbox();
	const sb = installed.sb;
	const panels = panelsFrom(
		installed.allNodes.filter((n) => n.name === NODE_TYPE || n.name === TRIGGER_TYPE),
	);
	note(`panels (from the node descriptions n8n loaded): ${panels.map((p) => p.node).join(', ')}`);
	if (argv.includes('--list')) return;

	section('phpRank test server, credential, n8n, owner, test workflow');
	seedServer(api, Date.now());
	// ten and more reports for Get Many's Limit 10, among them the one the By URL check links to
	for (const [id, url, result] of [
		[11, 'https://example.com/about', 77],
		[LINKED_REPORT, 'https://example.com/contact', 54],
		[13, 'https://blog.acme.io/guides', 83],
		[14, 'https://docs.widgets.dev/start', 66],
	] as const) {
		api.addReport({
			id,
			url,
			result,
			user_id: USER_IDS.default,
			created_at: new Date().toISOString(),
			privacy: 0,
		});
	}
	await api.start();
	note(`phpRank test server: ${api.url}`);
	await timed(
		'n8n import:credentials',
		async () =>
			await importCredentials(sb, [testServerCredential(api), (await suite.smtp()).credential]),
	);
	const n8n = suite.n8n(await timed('n8n start', async () => await startServer(sb)));
	note(`n8n: ${n8n.baseUrl}`);
	const session: RestSession = await setupOwner(n8n);
	const targets: NodeTargets = new Map();
	for (const workflow of buildWorkflows(panels)) {
		const { id } = await saveWorkflow(session, workflow);
		for (const n of workflow.nodes) targets.set(n.name, { workflowId: id, nodeId: String(n.id) });
	}
	note(`the test workflows saved (${targets.size} nodes; saveWorkflow throws if one is not)`);

	section(`Chromium (${CHROMIUM}), window ${WINDOW.width}x${WINDOW.height}`);
	const browser = await timed(
		'launch Chromium',
		async () => await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }),
	);
	suite.defer(() => browser.close());
	note(`browser ${browser.version()}`);
	const context = await browser.newContext({ viewport: WINDOW });
	await timed('sign in as the owner', async () => await signIn(context, n8n.baseUrl));
	check('signed in to the editor as the owner', true);
	const ui = new Ui(context, n8n.baseUrl, api.url, targets, shots);

	const action = installed.allNodes.find((n) => n.name === NODE_TYPE);
	const credentials = (action?.credentials ?? []).map((c) => c.displayName ?? '');
	const all = checks(panels, credentials, session);
	for (const name of only) {
		section(`${name}: ${CHECKS[name]}`);
		try {
			await timed(name, async () => await all[name](ui));
		} catch (e) {
			check(
				`${name}: ${(e as Error).message.split('\n')[0]}`,
				false,
				(e as Error).message.split('\n').slice(1, 6).join(' '),
			);
			for (const page of context.pages()) {
				await ui.evidence(page, name);
				await page.close();
			}
		}
	}
	if (process.env.KEEP_SANDBOX) {
		console.log(
			`\nKEEP_SANDBOX: n8n stays up at ${n8n.baseUrl} (${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}), folder ${sb.userFolder}; Ctrl+C to stop`,
		);
		await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
	}
}

suite.run(main);
