import type { IDataObject } from 'n8n-workflow';

import {
	PagingError,
	readPages,
	requestBound,
	type ListPage,
	type PagingCursor,
	type PagingOptions,
	type PagingProblem,
} from '../../nodes/PhpRank/transport/paging';
import { pageSizeFor } from '../../nodes/PhpRank/transport/paging';
import { createRng } from '../server/analysis';
import { paginate } from '../server/laravel';

interface Row extends IDataObject {
	id: number;
	name: string;
}

/**
 * A list endpoint over an in-memory table, offset-paged as Laravel's paginator does. `before` runs
 * before each request is answered (the n-th request, from 1), so a test can change the table the
 * way another workflow or user would while the list is read.
 */
class FakeList {
	rows: Row[];
	readonly asked: number[] = [];
	before?: (request: number, page: number) => void;
	private nextId: number;

	constructor(
		count: number,
		private readonly options: {
			perPage?: number;
			meta?: boolean;
			/** Sort: newest first by id (default) or by name ascending. */
			order?: 'id' | 'name';
			ignorePage?: boolean | 'echo';
			/** One row created before each request after the first (another workflow at work). */
			grow?: boolean;
			/** Overrides the total the paginator reports (a lying server). */
			total?: (request: number, real: number) => number;
			/** A proxy that cuts every page to this many records and leaves the meta as it was. */
			truncate?: number;
			/** The meta fields sent (default: current_page, last_page, per_page and total). */
			fields?: ReadonlyArray<'current_page' | 'last_page' | 'per_page' | 'total' | 'from' | 'to'>;
		} = {},
	) {
		this.rows = Array.from({ length: count }, (_, i) => ({ id: i + 1, name: nameFor(i + 1) }));
		this.nextId = count + 1;
	}

	get ids(): number[] {
		return this.sorted().map((row) => row.id);
	}

	create(): Row {
		const id = this.nextId++;
		const row = { id, name: nameFor(id) };
		this.rows.push(row);
		return row;
	}

	remove(id: number): void {
		this.rows = this.rows.filter((row) => row.id !== id);
	}

	fetch = async (page: number): Promise<ListPage> => {
		this.asked.push(page);
		const request = this.asked.length;
		if (this.options.grow && request > 1) this.create();
		this.before?.(request, page);
		const { perPage = 100, meta = true, ignorePage = false, truncate = Infinity } = this.options;
		const { fields = ['current_page', 'last_page', 'per_page', 'total'] } = this.options;
		const rows = this.sorted();
		const served = paginate(rows, ignorePage ? 1 : page, perPage, '/api/v1/reports', '');
		const records = served.data.map((row) => ({ ...row })).slice(0, truncate);
		if (!meta) return { records, meta: {} };
		const total = this.options.total?.(request, rows.length) ?? rows.length;
		const all: IDataObject = {
			...served.meta,
			current_page: ignorePage === 'echo' ? page : served.meta.current_page,
			last_page: Math.max(1, Math.ceil(total / perPage)),
			total,
		};
		return { records, meta: Object.fromEntries(fields.map((field) => [field, all[field]])) };
	};

	private sorted(): Row[] {
		return this.options.order === 'name'
			? [...this.rows].sort((a, b) => a.name.localeCompare(b.name))
			: [...this.rows].sort((a, b) => b.id - a.id);
	}
}

/** Names whose order is unrelated to the id, so new rows land anywhere in a by-name list. */
function nameFor(id: number): string {
	return `site-${String((id * 7919) % 100003).padStart(6, '0')}-${id}`;
}

const byId = { keyOf: (record: IDataObject) => Number(record.id), newestFirst: true };
const byName = { keyOf: (record: IDataObject) => String(record.name), newestFirst: false };
/** readPages over `list`, 100 a page, newest first by id unless `options` say otherwise. */
const read = <T = IDataObject>(list: FakeList, options: Partial<PagingOptions<T>> = {}) =>
	readPages<T>(list.fetch, { perPage: 100, ...byId, ...options });
const idsOf = (items: IDataObject[]) => items.map((item) => Number(item.id));
const sortedIds = (items: IDataObject[]) => idsOf(items).sort((a, b) => a - b);
const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** IDs `to` down to `from`: newest first, the list's order. */
const descending = (from: number, to: number) => range(from, to).reverse();

/** The problem readPages threw. */
async function problemOf(run: Promise<unknown>): Promise<PagingProblem> {
	const error = await run.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(PagingError);
	return (error as PagingError).problem;
}

describe('page sizes', () => {
	it.each([
		[1, 10],
		[10, 10],
		[11, 25],
		[26, 50],
		[51, 100],
		[101, 100],
		[Infinity, 100],
	])('a limit of %s asks for pages of %i', (limit, size) => {
		expect(pageSizeFor(limit)).toBe(size);
	});
});

describe('readPages on a list that does not change', () => {
	it.each([
		[0, 100, 100],
		[1, 100, 100],
		[99, 100, 100],
		[100, 100, 100],
		[101, 100, 100],
		[1000, 100, 100],
		[35, 100, 10],
		[250, 10, 10],
		[250, 25, 25],
		[250, 50, 50],
		[250, 100, 50],
		[249, 100, 10],
	])(
		'a list of %i, %i asked and %i a page answered: all in list order, ceil(N / page) requests (meta ends it)',
		async (count, asked, size) => {
			const list = new FakeList(count, { perPage: size });
			const requests = Math.max(1, Math.ceil(count / size));

			const run = await read(list, { perPage: asked });

			expect(idsOf(run.items)).toEqual(descending(1, count));
			expect(list.asked).toEqual(range(1, requests));
			expect(run).toMatchObject({ complete: true, steady: true, requests });
		},
	);

	it('stops at the limit: 250 records cost 3 requests and the last page is cut', async () => {
		const list = new FakeList(1000);

		const run = await read(list, { limit: 250 });

		expect(idsOf(run.items)).toEqual(descending(751, 1000));
		expect(run).toMatchObject({ complete: false, requests: 3 });
	});

	it('shapes each batch of new records with map, and never hands it a record twice', async () => {
		const list = new FakeList(300, { grow: true });
		const batches: number[][] = [];

		const run = await read(list, {
			map: (records) => {
				batches.push(idsOf(records));
				return records.map((record) => `#${String(record.id)}`);
			},
		});

		expect(run.items).toEqual(descending(1, 300).map((id) => `#${id}`));
		expect(batches.flat()).toEqual(descending(1, 300));
		expect(batches.map((batch) => batch.length)).toEqual([100, 99, 99, 2]);
	});

	it('ends at the first record stopAt accepts, without the records after it', async () => {
		const list = new FakeList(1000);

		const run = await read(list, { stopAt: (record) => Number(record.id) <= 850 });

		expect(idsOf(run.items)).toEqual(descending(851, 1000));
		expect(run).toMatchObject({ complete: true, requests: 2 });
	});

	it('returns only the records keep accepts, counts them against the limit, and reads on past the others', async () => {
		const list = new FakeList(1000);
		const keep = (record: IDataObject) => Number(record.id) % 50 === 0;

		const limited = await read(list, { keep, limit: 5 });
		expect(idsOf(limited.items)).toEqual([1000, 950, 900, 850, 800]);
		expect(list.asked).toEqual([1, 2, 3]);
		expect(limited.complete).toBe(false);

		list.asked.length = 0;
		const all = await read(list, { keep });
		expect(idsOf(all.items)).toEqual(descending(1, 20).map((n) => n * 50));
		expect(all).toMatchObject({ complete: true, steady: true, requests: 10 });
	});

	it('with keep and a list in another order, reads every page once and ends complete (no "short" list)', async () => {
		const list = new FakeList(250, { order: 'name' });
		const keep = (record: IDataObject) => Number(record.id) <= 10;

		const run = await read(list, { ...byName, keep });

		expect(sortedIds(run.items)).toEqual(range(1, 10));
		expect(run).toMatchObject({ complete: true, requests: 3 });
	});

	it('sends no more than maxPages requests, and resumes from the cursor it returns', async () => {
		const list = new FakeList(1000);
		const first = await read(list, { maxPages: 4 });
		const second = await read(list, { maxPages: 4, resume: first.cursor });
		const third = await read(list, { maxPages: 4, resume: second.cursor });

		expect(
			[first, second, third].map((run) => [run.items.length, run.complete, run.requests]),
		).toEqual([
			[400, false, 4],
			[400, false, 4],
			[200, true, 2],
		]);
		expect(idsOf([...first.items, ...second.items, ...third.items])).toEqual(descending(1, 1000));
		expect(list.asked).toEqual(range(1, 10));
	});

	it('asks stopEarly before each request after the first', async () => {
		const list = new FakeList(1000);
		let asked = 0;

		const run = await read(list, { stopEarly: () => ++asked >= 3 });

		expect(run).toMatchObject({ complete: false, requests: 3 });
		expect(run.cursor.page).toBe(4);
	});
});

describe('readPages follows the page size the server answers with (issue 18)', () => {
	it.each([
		[
			'meta.from and meta.to (no per_page)',
			['current_page', 'last_page', 'total', 'from', 'to'],
			false,
		],
		[
			'its fullest page (meta without per_page, from or to)',
			['current_page', 'last_page', 'total'],
			false,
		],
		[
			'its fullest page, a report created before each page',
			['current_page', 'last_page', 'total'],
			true,
		],
	] as const)(
		'an instance that caps pages at 50 when 100 are asked: every record that existed throughout, positions from %s',
		async (_how, fields, grow) => {
			const list = new FakeList(250, { perPage: 50, fields: [...fields], grow });
			const requests = grow ? 6 : 5;

			const run = await read(list);

			expect(idsOf(run.items)).toEqual(descending(1, 250));
			expect(list.asked).toEqual(range(1, requests));
			expect(run).toMatchObject({ complete: true, steady: true, requests });
		},
	);

	it.each([
		['a short page ends the list', 950, 100, 10],
		[
			'a full last page cannot be told from a middle one: one more request finds the end',
			1000,
			100,
			11,
		],
		[
			'a page shorter than the one asked for does not end the list: the empty page does',
			250,
			50,
			6,
		],
		[
			'the page size is not known until a page is answered: a short first page may be a cap',
			35,
			100,
			2,
		],
		['a short page after full ones ends the list', 230, 50, 5],
	])(
		'without meta (seed-spec instances), %s (%i records, %i a page, %i requests)',
		async (_how, count, perPage, requests) => {
			const list = new FakeList(count, { perPage, meta: false });

			const run = await read(list, byName);

			expect(sortedIds(run.items)).toEqual(range(1, count));
			expect(list.asked).toEqual(range(1, requests));
		},
	);

	it.each([
		['says per_page 100 but cuts every page to 50', { truncate: 50 }],
		[
			'says per_page 100 and from/to of 100 but cuts every page to 50',
			{
				truncate: 50,
				fields: ['current_page', 'last_page', 'per_page', 'total', 'from', 'to'] as const,
			},
		],
	])('a proxy that %s: the run fails instead of returning 150 of 250', async (_what, options) => {
		const list = new FakeList(250, options);

		const problem = await problemOf(read(list));

		expect(problem).toEqual({
			reason: 'short',
			total: 250,
			returned: 150,
			requests: 3,
			perPage: 100,
		});
		expect(list.asked).toEqual([1, 2, 3]);
	});

	it('a server that pages by 50 but says per_page 100: fails instead of returning part of the list', async () => {
		// Pages of 50 with the meta of pages of 100: last_page 3 ends the run after 150 records.
		const list = new FakeList(250, { perPage: 50 });
		const lying: typeof list.fetch = async (page) => {
			const answer = await list.fetch(page);
			return { ...answer, meta: { ...answer.meta, per_page: 100, last_page: 3 } };
		};

		const problem = await problemOf(readPages(lying, { perPage: 100, ...byName }));

		expect(problem).toMatchObject({ reason: 'short', total: 250, returned: 150 });
	});

	it('a short run is not an error when it was limited, stopped at a record, or resumed', async () => {
		const list = new FakeList(250, { truncate: 50 });

		const limited = await read(list, { limit: 200 });
		const stopped = await read(list, { stopAt: (record) => Number(record.id) <= 10 });
		const first = await read(list, { maxPages: 1 });
		const resumed = await read(list, { resume: first.cursor });

		expect(limited).toMatchObject({ complete: true, requests: 3 });
		expect(limited.items).toHaveLength(150);
		expect(stopped.complete).toBe(true);
		expect(first.complete).toBe(false);
		expect(resumed).toMatchObject({ complete: true, requests: 2 });
	});

	it('a short run while the total moves is returned as it is (it is not steady)', async () => {
		const list = new FakeList(250, { truncate: 50 });
		list.before = (request) => {
			if (request === 2) list.create();
		};

		const run = await read(list, byName);

		expect(run).toMatchObject({ complete: true, steady: false });
	});
});

describe('readPages on a list that changes while it is read (issue 11: 1,000 records)', () => {
	it('one already-read record deleted before each page: every record once, about 2 requests a page', async () => {
		const list = new FakeList(1000);
		const returned: number[] = [];
		list.before = (request) => {
			if (request > 1) list.remove(returned[Math.floor(returned.length / 2)]);
		};

		const run = await read(list, { map: (records) => (returned.push(...idsOf(records)), records) });

		// The deleted ones were read before they went, so all 1,000 come out, none twice.
		expect(idsOf(run.items)).toEqual(descending(1, 1000));
		expect(run.requests).toBeLessThanOrEqual(20);
	});

	it('one not yet read record deleted before each page: every record that remained, once', async () => {
		const list = new FakeList(1000);
		const gone = new Set<number>();
		list.before = (request) => {
			if (request === 1) return;
			const id = list.ids[list.ids.length - 1 - (request % 50)];
			gone.add(id);
			list.remove(id);
		};

		const run = await read(list);

		// A record deleted after it was read comes out too; one deleted before it was reached does not.
		const ids = idsOf(run.items);
		expect(ids.filter((id) => !gone.has(id))).toEqual(
			descending(1, 1000).filter((id) => !gone.has(id)),
		);
		expect(new Set(ids).size).toBe(ids.length);
		expect(run.requests).toBeLessThanOrEqual(2 * 10);
	});

	it.each(range(1, 40))(
		'random single changes between requests (seed %i): exactly the records that existed throughout, once',
		async (seed) => {
			const next = createRng(seed);
			const perPage = [10, 25, 100][seed % 3];
			const list = new FakeList(150 + Math.floor(next() * 400), {
				perPage,
				order: seed % 4 === 0 ? 'name' : 'id',
			});
			const newestFirst = seed % 4 !== 0;
			const initial = new Set(list.ids);
			const everDeleted = new Set<number>();
			const created = new Set<number>();
			list.before = () => {
				const roll = next();
				if (roll < 0.3 && (newestFirst || created.size === 0 || everDeleted.size === 0)) {
					// Only one kind of change for other orders: mixing them is best effort there.
					if (!newestFirst && everDeleted.size > 0) return;
					created.add(list.create().id);
				} else if (roll < 0.7 && list.rows.length > 0 && (newestFirst || created.size === 0)) {
					const id = list.ids[Math.floor(next() * list.rows.length)];
					everDeleted.add(id);
					list.remove(id);
				}
			};

			const run = await read(list, { perPage, ...(newestFirst ? byId : byName) });

			const ids = idsOf(run.items);
			expect(new Set(ids).size).toBe(ids.length);
			const throughout = [...initial].filter((id) => !everDeleted.has(id));
			expect(ids.filter((id) => throughout.includes(id)).sort((a, b) => a - b)).toEqual(
				throughout.sort((a, b) => a - b),
			);
			expect(ids.every((id) => initial.has(id) || created.has(id))).toBe(true);
			expect(run.complete).toBe(true);
		},
	);

	it.each(range(1, 20))(
		'random bursts of creations and deletions (seed %i): never a record twice, and the run ends',
		async (seed) => {
			const next = createRng(1000 + seed);
			const list = new FakeList(300, { perPage: 25, order: seed % 2 ? 'id' : 'name' });
			list.before = () => {
				for (let i = Math.floor(next() * 4); i > 0; i--) {
					if (next() < 0.5) list.create();
					else if (list.rows.length > 0)
						list.remove(list.ids[Math.floor(next() * list.rows.length)]);
				}
			};

			const run = await read(list, { perPage: 25, newestFirst: seed % 2 === 1 });

			const ids = idsOf(run.items);
			expect(new Set(ids).size).toBe(ids.length);
			expect(run.complete).toBe(true);
		},
	);

	it('resumed across polls while the list moves: the 1,000 that existed throughout, once', async () => {
		const list = new FakeList(1000);
		const items: IDataObject[] = [];
		let cursor: PagingCursor | undefined;
		for (let poll = 0; poll < 20; poll++) {
			// Between polls (minutes apart) much changes: 5 created, 5 read ones deleted.
			for (let i = 0; i < 5 && poll > 0; i++) list.create();
			for (let i = 0; i < 5 && items.length > 0; i++)
				list.remove(Number(items[(poll * 37 + i * 11) % items.length].id));
			const run = await read(list, { maxPages: 2, resume: cursor });
			items.push(...run.items);
			cursor = run.cursor;
			if (run.complete) break;
		}

		expect(idsOf(items)).toEqual(descending(1, 1000));
	});
});

describe('readPages against servers that do not page', () => {
	it.each([
		['the server answers page 1 again (meta.current_page)', { ignorePage: true }, byId],
		['meta echoes the page asked for but the records repeat page 1', { ignorePage: 'echo' }, byId],
		['the records repeat page 1 without meta', { ignorePage: true, meta: false }, byName],
	] as const)('stops at page 2 when %s', async (_how, options, order) => {
		const list = new FakeList(1000, options);

		const problem = await problemOf(read(list, order));

		expect(problem).toEqual({ reason: 'page-ignored', asked: 2, answered: 1 });
		expect(list.asked).toEqual([1, 2]);
	});

	it('ends a run that does not converge at the bound set by the first page’s total', async () => {
		// A total that falls and rises between every two requests: each page looks like records slipped past it.
		const list = new FakeList(1000, {
			total: (request, real) => (request % 2 ? real : real - 100),
		});

		const problem = await problemOf(read(list));

		expect(requestBound(1000, 100)).toBe(30);
		expect(problem).toEqual({ reason: 'not-converging', requests: 30, total: 900, perPage: 100 });
		expect(list.asked).toHaveLength(30);
	});
});
