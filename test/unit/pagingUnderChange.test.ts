import type { IDataObject, INode } from 'n8n-workflow';

import { reportSpec } from '../../nodes/PhpRank/descriptions/report/reportSpec';
import type { RequestContext } from '../../nodes/PhpRank/transport/request';
import { type PageFetcher, readList } from '../../nodes/PhpRank/transport/paging';
import { createRng } from '../server/analysis';
import { paginate } from '../server/laravel';

/*
 * Issue 38: Return All while reports are created and deleted. readList with read-ahead over an
 * in-memory list, every request in three steps a seeded scheduler orders at random against the
 * other request in flight: a change (before the request reaches the list), the list's answer
 * (its snapshot), the answer's arrival. Pure: no engine, no HTTP.
 */

interface Request {
	page: number;
	changed: boolean;
	answer?: { records: IDataObject[]; meta: IDataObject };
	onListPage?: (meta: IDataObject) => void;
	resolve: (page: { records: IDataObject[]; meta: IDataObject }) => void;
}

const node = { name: 'phpRank', type: 'phpRank', typeVersion: 1, parameters: {} } as INode;
const ctx = { getNode: () => node } as unknown as RequestContext;
const settle = () => new Promise((resolve) => setImmediate(resolve));

type Change = (ids: number[], random: () => number, nextId: () => number) => number[];

/** One Return All of `count` reports, newest first, 100 a page, `change` before every page request. */
async function run(seed: number, count: number, change: Change) {
	const random = createRng(seed);
	let ids = Array.from({ length: count }, (_, i) => count - i);
	let next = count + 1;
	const initial = [...ids];
	const inFlight: Request[] = [];
	let peak = 0;
	let sent = 0;
	const fetcher: PageFetcher = (qs, onListPage) =>
		new Promise((resolve) => {
			inFlight.push({ page: Number(qs.page), changed: false, onListPage, resolve });
			peak = Math.max(peak, inFlight.length);
			sent++;
		});
	let outcome: { ids?: number[]; error?: Error } | undefined;
	readList({ ctx, spec: reportSpec }, {}, { perPage: 100, readAhead: true }, fetcher).then(
		({ items }) => (outcome = { ids: items.map((record) => Number(record.id)) }),
		(error: Error) => (outcome = { error }),
	);
	await settle();
	while (!outcome) {
		if (inFlight.length === 0) throw new Error(`seed ${seed}: the reader waits for nothing`);
		const request = inFlight[Math.floor(random() * inFlight.length)];
		if (!request.changed) {
			request.changed = true;
			if (sent > 1) ids = change(ids, random, () => next++);
		} else if (!request.answer) {
			const { data, meta } = paginate(ids, request.page, 100, '/api/v1/reports', '');
			request.answer = { records: data.map((id) => ({ id })), meta: { ...meta } };
		} else {
			inFlight.splice(inFlight.indexOf(request), 1);
			request.onListPage?.(request.answer.meta);
			request.resolve(request.answer);
		}
		await settle();
	}
	const end = new Set(ids);
	const survivors = initial.filter((id) => end.has(id));
	const got = outcome.ids ?? [];
	const returned = new Set(got);
	return {
		error: outcome.error,
		missing: survivors.filter((id) => !returned.has(id)).length,
		twice: got.length - returned.size,
		peak,
		sent,
	};
}

/** Deletes one report anywhere (above the reader, in the page it reads, below it) or creates one at the top. */
const anyChange: Change = (ids, random, nextId) => {
	if (random() < 0.3) return [nextId(), ...ids];
	const gone = Math.floor(random() * ids.length);
	return ids.filter((_, i) => i !== gone);
};

/** The proxy: the newest report deleted before each page request after the first. */
const deleteNewest: Change = (ids) => ids.slice(1);

describe('Return All of 1,000 reports with a change before every page request (seeded)', () => {
	it.each([
		['a report deleted anywhere or created at the top', anyChange],
		['the newest report deleted (the proxy of issue 38)', deleteNewest],
	])(
		'%s: 200 lists, every survivor once, or an error',
		async (_what, change) => {
			const totals = { runs: 0, exact: 0, errors: 0, short: 0, twice: 0, requests: 0, peak: 0 };
			for (let seed = 1; seed <= 200; seed++) {
				const { error, missing, twice, peak, sent } = await run(seed, 1000, change);
				totals.runs++;
				totals.requests += sent;
				totals.peak = Math.max(totals.peak, peak);
				if (error) totals.errors++;
				else if (missing > 0) totals.short++;
				else if (twice > 0) totals.twice++;
				else totals.exact++;
			}
			console.log(`${_what}: ${JSON.stringify(totals)}`);
			expect(totals).toMatchObject({ runs: 200, short: 0, twice: 0 });
			expect(totals.exact + totals.errors).toBe(200);
			// Never a page asked for that the reader then drops: one answer awaited at a time.
			expect(totals.peak).toBe(1);
		},
		60_000,
	);
});
