import type { IDataObject } from 'n8n-workflow';

import { HISTORY_COLUMNS } from '../nodes/PhpRank/history/model';
import { locator, perSiteParameters, useN8nApi, useServer } from './harness/setup';
import { scriptRun } from './harness/siteOverMonths';
import { siteRuns } from './harness/siteRuns';

/*
 * Output → One Item per Finding Change through the real n8n engine: a site's scripted runs as
 * production executions (and a manual one), each run's items asserted exactly, with the tickets
 * kept in each History Store home (Data Table: the stand-in for n8n's public API).
 */

const URLS = ['https://shop.example.com/', 'https://shop.example.com/a'];
const START = Date.parse('2026-01-05T08:00:00Z');
const TABLE = { historyStore: 'dataTable', historyTable: locator('name', 'phpRank history') };
/** The History Store of the test's runs and recordings. */
let home: IDataObject = {};
const findings = (extra: IDataObject = {}) =>
	perSiteParameters({ output: 'findings', ...home, ...extra });
const key = (check: string) => `shop.example.com · ${check}`;
/** Ticket Per → Page Group: two Products pages and a Blog page, with their Search Console clicks. */
const PAGES = ['products/a', 'products/b', 'blog/x'].map((p) => `https://shop.example.com/${p}`);
const GROUPS = { Products: '/products/**', Blog: '/blog/*' };
const CLICKS = PAGES.map((url, at) => ({ keys: [url], clicks: 5 ** (2 - at), impressions: 1 }));
const BY_GROUP = {
	pageGroups: { group: Object.entries(GROUPS).map(([name, pattern]) => ({ name, pattern })) },
	findingOptions: { ticketPer: 'group' },
	searchConsoleData: { rows: CLICKS },
};
/** Each item as `event key(s) ticket`, the keys without the site. */
const summary = (items: Array<{ json: IDataObject }>) =>
	items.map(({ json: { event, key: k, keys, ticket } }) =>
		[event, String(k ?? keys).replaceAll(key(''), ''), String(ticket)].join(' '),
	);
const RECORD = {
	resource: 'report',
	operation: 'recordTicket',
	findingKey: '={{ $json.key }}',
	ticket: '={{ $json.ticket }}',
};
type Mode = 'webhook' | 'manual';

describe('Create or Re-Run, One Item per Finding Change', () => {
	const api = useServer();
	const n8n = useN8nApi();
	const { run, state, reset } = siteRuns(api, findings, {
		urls: URLS,
		n8nApi: () => n8n.credential,
	});
	beforeEach(() => {
		api.server.deleteAllReports();
		reset();
		n8n.reset();
		home = {};
	});
	/** What is kept between runs: the static data, and the history table's rows. */
	const kept = () => {
		const table = n8n.api.tables.byName('phpRank history');
		return structuredClone([state.saved, table && n8n.api.tables.rows(table.id)]);
	};
	const script = (week: number, failing: string[][], urls = URLS) =>
		scriptRun(api.server, urls, { start: START, run: week, scores: [60, 80, 70], failing });
	type Exec = { urls?: string[]; id?: string };
	const production = async (week: number, failing: string[][], extra?: IDataObject, o?: Exec) => {
		script(week, failing, o?.urls);
		const { items, error } = await run('webhook', { extra, ...o });
		expect(error).toBeUndefined();
		return items;
	};
	/** Record Finding Ticket of each finding's ticket (as a tracker node returned it): no phpRank request. */
	const record = async (tickets: Record<string, string | number>, mode: Mode = 'webhook') => {
		const items = Object.entries(tickets).map(([check, ticket]) => ({ key: key(check), ticket }));
		const sent = api.calls().length;
		const done = await run(mode, { node: { parameters: { ...RECORD, ...home }, items } });
		expect(done.error).toBeUndefined();
		expect(api.calls()).toHaveLength(sent);
		return done;
	};

	it.each([['This Workflow', {}] as const, ['Data Table', TABLE] as const])(
		'opens, resolves and regresses findings with the tickets recorded in %s; manual runs record nothing',
		async (_, store) => {
			home = store;
			const first = await production(0, [['title', 'favicon'], ['title']]);
			expect(summary(first)).toEqual(['opened title null', 'opened favicon null']);
			const [title] = first.map(({ json }) => json);
			expect(title).toMatchObject({
				key: key('title'),
				site: 'shop.example.com',
				check: 'title',
				importance: 'high',
				failing_pages: 2,
				first_seen: '2026-01-05T08:00:01Z',
				age_runs: 1,
				age_days: 0,
				title: 'SEO: title fails on shop.example.com',
				history_saved: true,
			});
			expect(title).not.toHaveProperty('clicks_affected');
			const worst = title.worst_pages as IDataObject[];
			expect(worst.map(({ url, score }) => [url, score])).toEqual([
				['shop.example.com', 60],
				['shop.example.com/a', 80],
			]);
			expect(String(title.body)).toContain(
				`- [shop.example.com](${String(worst[0].link)}) (score 60)`,
			);
			let saved = kept();
			const requests = n8n.api.requests.length;
			const { json } = (await record({ title: 11 }, 'manual')).items[0];
			expect([json, kept(), n8n.api.requests.length]).toEqual([
				{ key: key('title'), ticket: 11, ticket_recorded: false },
				saved,
				requests,
			]);
			expect((await record({ title: 11, favicon: ' F-2 ' })).items[1].json.ticket).toBe('F-2');
			expect(await production(1, [['title', 'favicon'], ['title']])).toEqual([]);
			expect(summary(await production(2, [['favicon'], []]))).toEqual(['resolved title 11']);

			script(3, [['favicon', 'title'], []]);
			saved = kept();
			const manual = await run('manual');
			expect(summary(manual.items)).toEqual(['regressed title 11']);
			expect(manual.items[0].json.history_saved).toBe(false);
			expect(kept()).toEqual(saved);
			n8n.api.requests.length = 0;
			const regressed = await production(3, [['favicon', 'title'], []]);
			// The tickets come in the run's one read of the site's rows.
			const id = n8n.api.tables.byName('phpRank history')?.id;
			const calls = n8n.api.requests.map(({ method, path }) => `${method} ${path}`);
			const rows = `/api/v1/data-tables/${id}/rows`;
			// And the site's rows written since that read, read back: 1 request more.
			expect(calls).toEqual(
				id ? ['GET /api/v1/data-tables', `GET ${rows}`, `POST ${rows}/upsert`, `GET ${rows}`] : [],
			);
			expect(regressed.map(({ json }) => json)).toEqual([
				expect.objectContaining({
					event: 'regressed',
					ticket: 11,
					first_seen: '2026-01-05T08:00:01Z',
					failing_pages: 1,
					history_saved: true,
				}),
			]);
			expect(await production(4, [['favicon', 'title'], []])).toEqual([]);
			if (id)
				expect(n8n.api.tables.rows(id).filter((row) => row.finding)).toMatchObject([
					{ site: 'shop.example.com', finding: key('title'), ticket: '11', run_date: null },
					{ finding: key('favicon'), ticket: 'F-2', execution_id: '' },
				]);
		},
	);

	it('Data Table: two executions recording at once both keep their ticket; a run after, in the same execution, leaves them', async () => {
		home = TABLE;
		await production(0, [['title', 'favicon'], []]);
		await Promise.all([record({ title: 7 }), record({ favicon: 8 })]);
		const { columns, id } = n8n.api.tables.byName('phpRank history')!;
		expect(columns.slice(-2).map(({ name }) => name)).toEqual(['finding', 'ticket']);
		expect(summary(await production(1, [[], []], {}, { id: '3' }))).toEqual([
			'resolved favicon 8',
			'resolved title 7',
		]);
		const kinds = n8n.api.tables.rows(id).map((row) => `${row.execution_id}:${row.finding}`);
		expect(kinds).toEqual(['1:null', `:${key('title')}`, `:${key('favicon')}`, '3:null']);
	});

	it.each([true, false])(
		'This Workflow, the node renamed (its runs start over, the tickets stay): no ticket twice, the passing one resolved (Repeat Until Ticket Recorded %s)',
		async (untilTicketRecorded) => {
			const extra = { findingOptions: { untilTicketRecorded } };
			await production(0, [['title', 'favicon'], []], extra);
			await record({ title: 11, favicon: 12 });
			for (const name of Object.keys(state.saved))
				if (name.startsWith('node:')) delete state.saved[name];
			expect(Object.keys(state.saved)).toEqual(['global']);
			expect(summary(await production(1, [['title', 'robots'], []], extra))).toEqual([
				'opened robots null',
				'resolved favicon 12',
			]);
			expect(await production(2, [['title', 'robots'], []], extra)).toHaveLength(
				untilTicketRecorded ? 1 : 0,
			);
		},
	);

	it('Repeat Until Ticket Recorded off: opened once, resolved without a ticket; Retry On Fail gives the same items', async () => {
		const searchConsoleData = {
			rows: [
				{ keys: [URLS[0]], clicks: 120, impressions: 3000 },
				{ keys: [URLS[1]], clicks: 7, impressions: 90 },
			],
		};
		const extra = { findingOptions: { untilTicketRecorded: false }, searchConsoleData };
		await production(0, [['title'], []], extra);
		const once = await production(1, [[], ['favicon']], extra, { id: 'retried' });
		const again = await production(1, [[], ['favicon']], extra, { id: 'retried' });
		expect(summary(once)).toEqual(['opened favicon null', 'resolved title null']);
		// With Search Console Data: the traffic of the pages each fails on (none once resolved).
		const traffic = once.map(({ json }) => `${json.clicks_affected}/${json.impressions_affected}`);
		expect(traffic).toEqual(['7/90', '0/0']);
		expect(once[0].json.body).toContain(
			' of shop.example.com, with 7 clicks and 90 impressions in the Search Console Data.',
		);
		expect(again).toEqual(once);
		expect(await production(2, [[], ['favicon', 'title']], extra)).toMatchObject([
			{ json: { event: 'regressed', key: key('title') } },
		]);
		const [perSite] = await production(3, [[], ['favicon']], { output: 'sites' });
		expect(perSite.json.runs_recorded).toBe(4);
	});

	it('nothing lost: what the flood guard held back, or a tracker call that failed, comes again until its ticket is recorded', async () => {
		const failing = [['favicon', 'title', 'robots', 'sitemap'], ['title']];
		const options = { findingOptions: { maxNewTickets: 2, remindAfterDays: 14 } };
		const first = await production(0, failing, options);
		expect(summary(first)).toEqual([
			'opened title null',
			'opened robots null',
			'held favicon,sitemap undefined',
		]);
		expect(first[2].json).toMatchObject({
			held: 2,
			title: 'SEO: 2 more findings on shop.example.com',
		});
		await record({ title: 1, robots: 2 });
		const second = await production(1, failing, options);
		expect(summary(second)).toEqual(['opened favicon null', 'opened sitemap null']);
		expect(second[0].json).toMatchObject({
			age_runs: 2,
			age_days: 7,
			first_seen: '2026-01-05T08:00:01Z',
		});
		await record({ favicon: 3 }); // sitemap's tracker call failed
		expect(summary(await production(2, failing, options))).toEqual([
			'opened sitemap null',
			'reminder title 1',
			'reminder robots 2',
			'reminder favicon 3',
		]);
		await record({ sitemap: 'SEO-4' });
		expect(await production(3, failing, options)).toEqual([]);
		expect(summary(await production(4, [['title'], []], options))).toEqual([
			'reminder title 1',
			'resolved favicon 3',
			'resolved robots 2',
			'resolved sitemap SEO-4',
		]);
	});

	// Ticket Per → Page Group and Page, in each home: `a`, `b` the Products pages' group or page, `x` the blog's.
	it.each([
		['Page Group', 'This Workflow', {}, ['Products', 'Products', 'Blog']],
		['Page Group', 'Data Table', TABLE, ['Products', 'Products', 'Blog']],
		['Page', 'This Workflow', {}, ['/products/a', '/products/b', '/blog/x']],
		['Page', 'Data Table', TABLE, ['/products/a', '/products/b', '/blog/x']],
	] as const)(
		'Ticket Per → %s in %s: each one’s findings open, resolve and regress on their own, with their tickets and clicks',
		async (per, _, store, [a, b, x]) => {
			home = store;
			const byPage = per === 'Page';
			const extra = { ...BY_GROUP, ...(byPage && { findingOptions: { ticketPer: 'page' } }) };
			const week = (at: number, failing: string[][], id?: string) =>
				production(at, failing, extra, { urls: PAGES, id });
			const first = await week(0, [['title'], ['title', 'favicon'], ['title']]);
			// With Search Console Data the clicks rank before importance (README's fix-first rule).
			const opened = [`${a} · title`, `${b} · title`, `${b} · favicon`, `${x} · title`];
			expect(summary(first)).toEqual([...new Set(opened)].map((k) => `opened ${k} null`));
			const place = byPage ? `shop.example.com${a}` : 'shop.example.com (page group Products)';
			expect(first[0].json).toMatchObject({
				key: key(`${a} · title`),
				[byPage ? 'page' : 'group']: a,
				failing_pages: byPage ? 1 : 2,
				clicks_affected: byPage ? 25 : 30,
				worst_pages: [{ url: 'shop.example.com/products/a', score: 60 }, ...(byPage ? [] : [{}])],
				title: `SEO: title fails on ${place}`,
			});
			const blog = byPage ? 'the page ' : '1 page of ';
			const blogPlace = byPage ? 'shop.example.com/blog/x' : 'shop.example.com (page group Blog)';
			expect(first.at(-1)!.json.body).toContain(`fails on ${blog}${blogPlace}, with 1 clicks`);
			await record({ [`${a} · title`]: 'P-1', [`${b} · title`]: 'P-1', [`${x} · title`]: 'B-1' });
			await record({ [`${b} · favicon`]: 3 });
			expect(await week(1, [['title'], ['title', 'favicon'], ['title']])).toEqual([]);
			// title fixed on /products/a, still failing on /products/b: the page's finding resolves, not the group's.
			const fixedOnA = await week(2, [[], ['title', 'favicon'], ['title']]);
			expect(summary(fixedOnA)).toEqual(byPage ? [`resolved ${a} · title P-1`] : []);
			// The site's title still fails (on the blog): only the Products group's, or page's, resolves.
			const fixedOnB = summary(await week(3, [[], ['favicon'], ['title']]));
			expect(fixedOnB).toEqual([`resolved ${b} · title P-1`]);
			// Retry On Fail: the second try gives the same items.
			for (let tries = 0; tries < 2; tries++)
				expect(summary(await week(4, [['title'], ['favicon'], []], 'retried'))).toEqual([
					`regressed ${a} · title P-1`,
					`resolved ${x} · title B-1`,
				]);
			const table = n8n.api.tables.byName('phpRank history');
			const rows = table
				? n8n.api.tables.rows(table.id).filter((row) => row.run_date && !row.page_group)
				: [];
			expect(rows.map((row) => row.failing_pages ?? null).slice(-2)).toEqual(
				table && byPage
					? ['/blog/x: title; /products/b: favicon', '/products/a: title; /products/b: favicon']
					: rows.slice(-2).map(() => null),
			);
			expect(JSON.stringify(state.saved).includes(byPage ? 'page history' : 'group history')).toBe(
				!table,
			);
		},
	);

	it('Ticket Per → Page refuses a table whose failing_pages is no string, before any request', async () => {
		const { id } = n8n.api.tables.create('old', [
			...HISTORY_COLUMNS,
			{ name: 'failing_pages', type: 'date' },
		]);
		home = { historyStore: 'dataTable', historyTable: locator('id', id) };
		const { error } = await run('webhook', { extra: { findingOptions: { ticketPer: 'page' } } });
		expect(error?.message).toMatch(
			/"old" lacks the column failing_pages \(string, not date.*Nothing/,
		);
		expect(api.apiRequests()).toEqual([]);
	});

	it('Data Table: two executions adding failing_pages at once both run (n8n refuses the later add)', async () => {
		const { id } = n8n.api.tables.create('phpRank history', [...HISTORY_COLUMNS]);
		home = TABLE;
		const extra = { findingOptions: { ticketPer: 'page' } };
		const runs = [['title'], ['favicon']].map((failing, at) =>
			production(0, [failing], extra, { urls: [URLS[at]] }),
		);
		const opened = ['opened / · title null', 'opened /a · favicon null'];
		expect((await Promise.all(runs)).map(summary)).toEqual(opened.map((item) => [item]));
		const rows = n8n.api.tables.rows(id).map((row) => row.failing_pages);
		expect(rows).toEqual(['/: title', '/a: favicon']);
	});

	it('Ticket Per changed from Site to Page Group: the groups’ findings open, the site’s tickets get no item', async () => {
		await production(0, [['title'], [], []], {}, { urls: PAGES });
		await record({ title: 1 });
		const byGroup = await production(1, [['title'], [], ['favicon']], BY_GROUP, { urls: PAGES });
		expect(summary(byGroup)).toEqual([
			'opened Products · title null',
			'opened Blog · favicon null',
		]);
	});

	/**
	 * Two production executions of the site at once (a re-sent webhook on two queue workers): the
	 * stand-in holds both reads of the site's rows until both have read; with `ordered`, the second's
	 * row is written once the first's is in the table. Each one's items, by execution.
	 */
	type Execs = Array<Exec & { extra?: IDataObject }>;
	const atOnce = async (week: number, failing: string[][], execs: Execs, ordered = false) => {
		for (const { urls = URLS } of execs) script(week, failing, urls);
		const [first, second] = execs.map(({ id }) => String(id));
		const written = () => executions().includes(first);
		const reads: Array<() => void> = [];
		n8n.api.setGate(async ({ path, query, body }) => {
			if (query.sortBy === 'run_date:asc')
				await new Promise<void>((go) => reads.push(go) < 2 || reads.forEach((read) => read()));
			if (ordered && path.endsWith('/upsert') && JSON.stringify(body).includes(`"${second}"`))
				while (!written()) await new Promise((wait) => setTimeout(wait, 5));
		});
		const runs = await Promise.all(execs.map((exec) => run('webhook', exec)));
		return Object.fromEntries(execs.map(({ id }, at) => [id, summary(runs[at].items)]));
	};
	/** The writer of each row but the groups'. */
	const executions = () =>
		n8n.api.tables
			.rows(n8n.api.tables.byName('phpRank history')!.id)
			.flatMap((row) => (row.page_group === null ? [row.execution_id] : []));
	/** The queries that read back the site's rows written since the run's read. */
	const readBacks = () =>
		n8n.api.requests.flatMap(({ query }) => (query.sortBy === 'id:asc' ? [query] : []));
	const after = (id: number) => ({
		filter: `{"type":"and","filters":[{"columnName":"site","condition":"eq","value":"shop.example.com"},{"columnName":"id","condition":"gt","value":${id}}]}`,
		sortBy: 'id:asc',
		limit: '250',
	});

	it.each([
		['Site', {}, URLS, '', 5 + 4 + 4],
		['Page Group', BY_GROUP, PAGES, 'Products · ', 6 + 5 + 5],
		['Page', { findingOptions: { ticketPer: 'page' } }, URLS, '/ · ', 6 + 4 + 4],
	])(
		'Data Table, Ticket Per → %s, two executions of the site at once: each finding opened by one, the one whose row is written first',
		async (_, extra, urls, group, requests) => {
			home = TABLE;
			// Title's tracker call failed (no ticket): Repeat Until Ticket Recorded opens it again, once.
			await production(0, [['title'], []], extra, { urls });
			const read = n8n.api.tables.rows(n8n.api.tables.byName('phpRank history')!.id).length;
			const execs = ['P', 'Q'].map((id) => ({ id, urls, extra }));
			const items = await atOnce(1, [['title', 'favicon'], []], execs);
			const [earlier, later] = executions().slice(1).map(String);
			expect([earlier, later].sort()).toEqual(['P', 'Q']);
			const opened = [`opened ${group}title null`, `opened ${group}favicon null`];
			expect([items[earlier], items[later]]).toEqual([opened, []]);
			// Per run: the table (made by the first), the site's rows, its writes, those written since read back.
			expect([readBacks(), n8n.api.requests.length]).toEqual([
				[0, read, read].map(after),
				requests,
			]);
			expect(await production(2, [['title', 'favicon'], []], extra, { urls })).toHaveLength(2);
		},
	);

	it('Data Table, two executions at once auditing different pages: a check fixed in between resolves once, one failing only in the later opens; its retry (the same Run Key) gives the same items', async () => {
		home = TABLE;
		await production(0, [['title', 'sitemap'], ['robots']]);
		await record({ title: 1, sitemap: 2, robots: 3 });
		const later = { id: 'Q', extra: { runKey: 'week-1' } };
		const execs = [{ id: 'P', urls: [URLS[0]] }, later];
		const expected = {
			P: ['opened favicon null', 'resolved robots 3', 'resolved sitemap 2'],
			Q: ['opened headings null'],
		};
		expect(await atOnce(1, [['title', 'favicon'], ['headings']], execs, true)).toEqual(expected);
		await record({ favicon: 4 }); // by P's tracker node, before Q's retry reads
		n8n.api.requests.length = 0;
		const retry = await production(1, [['title', 'favicon'], ['headings']], later.extra);
		// Its row kept its id, 6, below the newest read (7, the ticket): none landed since.
		expect([summary(retry), readBacks()]).toEqual([expected.Q, [after(7)]]);
		expect(executions().join()).toBe('1,,,,P,run:week-1,');
	});

	it.each([{}, TABLE])('sends the phpRank requests of One Item per Site, %#', async (store) => {
		const calls: string[][] = [];
		for (const extra of [{ output: 'sites' }, {}, { findingOptions: { ticketPer: 'page' } }]) {
			api.server.deleteAllReports();
			api.reset();
			script(0, [['title'], []]);
			await run('webhook', { extra: { ...store, ...extra } });
			calls.push(api.calls());
		}
		expect(calls.slice(1)).toEqual([calls[0], calls[0]]);
		expect(calls[0].length).toBeGreaterThan(0);
	});

	it.each([
		[{ maxNewTickets: 0 }, 'Max New Tickets must be a number from 1 to 1000, not "0"'],
		[
			{ remindAfterDays: 'soon' },
			'Remind After (Days) must be a number from 0 to 3650, not "soon"',
		],
		[{ ticketPer: 'group' }, 'Ticket Per is Page Group, but no Page Groups are set'],
		[{ ticketPer: 'url' }, 'Ticket Per must be Site, Page Group or Page, not "url"'],
	])('refuses %j before any request, naming the field', async (findingOptions, message) => {
		const items = [{ url: URLS[0] }];
		await api.refuses(findings({ findingOptions }), `Finding Options → ${message}`, { items });
	});

	it('refuses Ticket Per → Page Group with a group named like a page, before any request', async () => {
		const pageGroups = { group: [{ name: '/blog', pattern: '/blog/*' }] };
		await api.refuses(
			findings({ ...BY_GROUP, pageGroups }),
			'Page Groups → group 1 (/blog) → Name starts with /: with Ticket Per → Page Group, finding keys would read it as a page',
			{ items: [{ url: URLS[0] }] },
		);
	});

	const noTable: IDataObject = { ...TABLE, historyTable: locator('name', ' ') };
	it.each<[string, IDataObject['ticket'], string, IDataObject?]>([
		[key('title'), { number: 7 }, 'Ticket must be text or a number, not an object'],
		[key('title'), ' ', 'Ticket must be text or a number, not " "'],
		[key('title'), undefined, 'Ticket must be text or a number, not nothing'],
		['title', 7, 'Finding Key must be a finding\'s key, not "title"'],
		[key('title'), 7, 'History Store is Data Table, but no History Table is chosen', noTable],
	])(
		'Record Finding Ticket refuses %j %j before anything is kept, naming the field',
		async (k, ticket, message, store = {}) => {
			const node = { parameters: { ...RECORD, ...store }, items: [{ key: k, ticket }] };
			const { error, staticData } = await run('webhook', { node });
			expect([error?.message, !!error?.description, n8n.api.requests]).toEqual([message, true, []]);
			expect(staticData.global).toBeUndefined();
		},
	);
});
