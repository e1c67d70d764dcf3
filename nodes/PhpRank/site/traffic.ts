import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { describeValue } from '../bounds';
import { fail } from '../input';
import { checkStates, importanceRank, sameUrlKey } from '../report';
import { failedOf, pageEntry, type SiteOptions } from './figures';
import { breachRecords, groupOf, type PageGroup } from './groups';
import type {
	Affected,
	Breach,
	CheckCount,
	DigestTraffic,
	GroupFigures,
	PageEntry,
	SiteHealth,
	SiteTraffic,
	Traffic,
} from './types';

/*
 * Search Console clicks and impressions beside a site's problems, pure. In: the Search Analytics
 * answer (searchanalytics.query, dimensions ["page"]: `rows[].keys[0]` the page, `clicks`,
 * `impressions`), its rows alone, or several answers (paging, n8n items). Out: each failing check's
 * and group's clicks and impressions, the checks ranked by clicks, coverage. A page of the data is
 * a page of the site when both read the same after `trafficKey`: Search Console's page dimension
 * gives the canonical URL whole (scheme, host, path, query; no fragment), so the scheme, a leading
 * `www.`, the host's case, trailing slashes, a fragment and percent-encoding are ignored; the
 * path's case and the query count (`?page=2` is another page).
 */

/** A page's URL as the data and the site are matched on. */
export function trafficKey(url: string): string {
	const bare = url.trim().replace(/#.*$/s, '');
	let decoded = bare;
	try {
		decoded = decodeURI(bare);
	} catch {
		// Not valid percent-encoding: matched as written.
	}
	return sameUrlKey(decoded);
}

/**
 * Search Console's rows as read: each row once by its keys, its page and figures; `period` the
 * answers' period in words when they say it (`startDate`/`endDate` or `days` beside `rows`).
 */
export type SearchConsoleRows = Map<string, { page: string } & Traffic> & { period?: string };

/** What is wrong with Search Console Data, and what to do. */
export type TrafficProblem = { problem: string; fix: string };

const FIX =
	'Give the Search Analytics answer as Search Console sends it (searchanalytics.query with dimensions ["page"]): { "rows": [{ "keys": ["https://example.com/pricing"], "clicks": 12, "impressions": 340 }] }, its rows alone, or a list of answers, e.g. {{ $(\'Search Console\').all().map(({ json }) => json) }}.';

const problem = (text: string, fix = FIX): TrafficProblem => ({ problem: text, fix });

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A row: an object with keys, clicks or impressions (an answer has none of them). */
const isRow = (value: unknown) =>
	isObject(value) && ('keys' in value || 'clicks' in value || 'impressions' in value);

type Answer = { at: string; rows: unknown; period?: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An answer's period in words, as `startDate`/`endDate` (as the request sent them) or `days` say it. */
function periodOf(answer: IDataObject, at: string): string | undefined | TrafficProblem {
	const { startDate, endDate, days } = answer;
	for (const [name, date] of Object.entries({ startDate, endDate }))
		if (date !== undefined && !(typeof date === 'string' && DATE.test(date)))
			return problem(
				`${at}${name} is ${describeValue(date)}, not a date`,
				`Give ${name} as the request sent it, YYYY-MM-DD (e.g. 2026-10-01), or leave it out.`,
			);
	if (typeof startDate === 'string' && typeof endDate === 'string')
		return `from ${startDate} to ${endDate}`;
	if (days === undefined) return undefined;
	if (typeof days !== 'number' || !Number.isInteger(days) || days < 1)
		return problem(
			`${at}days is ${describeValue(days)}, not a number of days`,
			'Give days as a whole number of 1 or more (e.g. 28), or leave it out.',
		);
	return `in the last ${days} days`;
}

/** Each answer's rows with the path a message names them by: `rows[3]`, `[1].rows[3]`. */
function answersOf(value: unknown): Answer[] | TrafficProblem {
	if (Array.isArray(value) && value.every(isRow)) return [{ at: '', rows: value }];
	const answers = Array.isArray(value) ? value : [value];
	const many = Array.isArray(value);
	const read: Answer[] = [];
	for (const [index, entry] of answers.entries()) {
		// An n8n item ({ json }) as `$('Search Console').all()` gives it.
		const answer = isObject(entry) && isObject(entry.json) ? entry.json : entry;
		const at = many ? `[${index}]` : '';
		if (!isObject(answer))
			return problem(`${at || 'it'} is ${describeValue(answer)}, not a Search Analytics answer`);
		if (isObject(answer.error))
			return problem(
				`${at || 'it'} is an error from Search Console: ${String(answer.error.message ?? '')}`,
				'Fix the Search Console request first (its credential, scope and site URL), then run again.',
			);
		if (!('rows' in answer) && !('responseAggregationType' in answer))
			return problem(`${at || 'it'} has no rows: it is not a Search Analytics answer`);
		const period = periodOf(answer, at ? `${at}.` : '');
		if (isProblem(period)) return period;
		// Search Console leaves rows out when it has no data for the period.
		read.push({ at: `${at}${at ? '.' : ''}rows`, rows: answer.rows ?? [], period });
	}
	return read;
}

/** One row checked: its page and figures, or what is wrong with it. */
function rowOf(
	row: unknown,
	at: string,
): ({ page: string; keys: string } & Traffic) | TrafficProblem {
	if (!isObject(row)) return problem(`${at} is ${describeValue(row)}, not a row`);
	const keys = row.keys;
	if (!Array.isArray(keys) || typeof keys[0] !== 'string' || keys[0].trim() === '')
		return problem(`${at}.keys must list the page first, but it is ${describeValue(keys)}`);
	if (!/^https?:\/\//i.test(keys[0].trim()))
		return problem(
			`${at}.keys[0] is ${describeValue(keys[0])}, not a page's URL`,
			'Query Search Console with dimensions ["page"] (the page first), so that each row names a page.',
		);
	const figures: Traffic = { clicks: 0, impressions: 0 };
	for (const name of ['clicks', 'impressions'] as const) {
		const value = row[name];
		if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
			return problem(
				`${at}.${name} is ${describeValue(value)}${typeof value === 'string' ? ' (text)' : ''}: ${name} must be a number of 0 or more`,
			);
		figures[name] = value;
	}
	return { page: keys[0].trim(), keys: JSON.stringify(keys), ...figures };
}

const isProblem = (value: unknown): value is TrafficProblem =>
	isObject(value) && typeof value.problem === 'string';

/**
 * Search Console Data read, or what is wrong with it (nothing given: undefined). A row repeated with
 * the same keys and figures (the same answer given twice) counts once; the same keys with other
 * figures are two periods mixed, and refused.
 */
export function readSearchConsole(given: unknown): SearchConsoleRows | TrafficProblem | undefined {
	if (given === undefined || given === null || given === '') return undefined;
	if (typeof given !== 'object') return readAnswers(given);
	// Items that hand over the same answer (the same object) read it once.
	const known = readOnce.get(given) ?? readAnswers(given);
	readOnce.set(given, known);
	return known;
}

const readOnce = new WeakMap<object, SearchConsoleRows | TrafficProblem>();

function readAnswers(given: unknown): SearchConsoleRows | TrafficProblem {
	let value: unknown = given;
	if (typeof given === 'string') {
		try {
			value = JSON.parse(given) as unknown;
		} catch {
			return problem('it is text, not JSON');
		}
	}
	const answers = answersOf(value);
	if (isProblem(answers)) return answers;
	const periods = new Set(answers.map(({ period }) => period));
	if (periods.size > 1)
		return problem(
			`its answers are of different periods (${[...periods].map(String).join('; ')})`,
			'Give the answers of one period: the same startDate and endDate (or days) on each.',
		);
	const rows: SearchConsoleRows = new Map();
	rows.period = answers[0]?.period;
	for (const { at, rows: list } of answers) {
		if (!Array.isArray(list)) return problem(`${at} is ${describeValue(list)}, not a list`);
		for (const [index, entry] of list.entries()) {
			const row = rowOf(entry, `${at}[${index}]`);
			if (isProblem(row)) return row;
			const { keys, ...figures } = row;
			const known = rows.get(keys);
			if (known && (known.clicks !== figures.clicks || known.impressions !== figures.impressions))
				return problem(
					`${at}[${index}] repeats the row of ${describeValue(row.page)} with other figures`,
					'Give one period’s answer (its pages, each once), not two answers of different periods.',
				);
			rows.set(keys, figures);
		}
	}
	return rows;
}

/** Search Console Data as given (set: the caller reads it only then), or the node's error naming the field. */
export function searchConsoleRows(
	ctx: IExecuteSingleFunctions,
	given: unknown,
	field = 'Search Console Data',
): SearchConsoleRows | undefined {
	const read = readSearchConsole(given);
	if (read === undefined || read instanceof Map) return read;
	return fail(ctx, `${field}: ${read.problem}`, read.fix);
}

/**
 * The item's Search Console data: the Search Console Data field; left empty, the input item's
 * `search_console`, else the item itself when it is a Search Analytics answer (the HTTP Request
 * node's `rows`: with `responseAggregationType`, or rows with `keys`). Other `rows` are not Search
 * Console's and are left alone. None: undefined.
 */
export function itemTraffic(ctx: IExecuteSingleFunctions): SearchConsoleRows | undefined {
	const given = ctx.getNodeParameter('searchConsoleData', '');
	if (given !== '' && given !== undefined) return searchConsoleRows(ctx, given);
	const json = ctx.getInputData()?.json ?? {};
	if (json.search_console !== undefined)
		return searchConsoleRows(ctx, json.search_console, "The input item's search_console");
	const rows = json.rows;
	const answer =
		Array.isArray(rows) &&
		('responseAggregationType' in json || rows.some((row) => isObject(row) && 'keys' in row));
	return answer ? searchConsoleRows(ctx, json, "The input item's rows") : undefined;
}

/** Several items' data as one: a row repeated counts once; on the same keys the first item's row is kept. */
export function joinRows(all: ReadonlyArray<SearchConsoleRows | undefined>): SearchConsoleRows {
	const joined: SearchConsoleRows = new Map();
	const periods = new Set(all.flatMap((rows) => (rows ? [rows.period] : [])));
	// Items of different periods (or some without one): no period said.
	if (periods.size === 1) joined.period = [...periods][0];
	for (const rows of all)
		for (const [keys, row] of rows ?? []) if (!joined.has(keys)) joined.set(keys, row);
	return joined;
}

const byPageOnce = new WeakMap<SearchConsoleRows, Map<string, Traffic>>();

/** Clicks and impressions per page, as `trafficKey` reads pages (rows of one page summed). */
export function trafficByPage(rows: SearchConsoleRows): Map<string, Traffic> {
	const read = byPageOnce.get(rows);
	if (read) return read;
	const byPage = new Map<string, Traffic>();
	byPageOnce.set(rows, byPage);
	for (const { page, clicks, impressions } of rows.values()) {
		const key = trafficKey(page);
		const known = byPage.get(key) ?? { clicks: 0, impressions: 0 };
		byPage.set(key, {
			clicks: known.clicks + clicks,
			impressions: known.impressions + impressions,
		});
	}
	return byPage;
}

/**
 * The clicks and impressions of a set of pages: each page once (two URLs of one page count once), a
 * page without data 0. What a finding, a check or a group carries.
 */
export function trafficOf(
	byPage: ReadonlyMap<string, Traffic>,
): (urls: Iterable<string>) => Traffic {
	return (urls) => {
		const total: Traffic = { clicks: 0, impressions: 0 };
		for (const key of new Set([...urls].map(trafficKey))) {
			const page = byPage.get(key);
			total.clicks += page?.clicks ?? 0;
			total.impressions += page?.impressions ?? 0;
		}
		return total;
	};
}

/** Pages with data in % of the pages, to a tenth (null: no page). */
export const coverage = (covered: number, pages: number): number | null =>
	pages ? Math.round((covered / pages) * 1000) / 10 : null;

const affected = ({ clicks, impressions }: Traffic): Affected => ({
	clicks_affected: clicks,
	impressions_affected: impressions,
});

/**
 * Fix first: the failing checks by the clicks of the pages they fail on, most first; then by
 * importance (high first), impressions, pages and name.
 */
export function fixFirst<C extends CheckCount & Affected>(checks: C[]): C[] {
	return [...checks].sort(
		(a, b) =>
			b.clicks_affected - a.clicks_affected ||
			importanceRank(a.importance) - importanceRank(b.importance) ||
			b.impressions_affected - a.impressions_affected ||
			b.pages - a.pages ||
			a.check.localeCompare(b.check),
	);
}

/**
 * Worst Pages By → Most Clicks: the pages failing a check, most clicks first (the clicks a fix can
 * keep); a tie goes to the lower score, then the older report.
 */
function mostClicks(
	records: readonly IDataObject[],
	of: (urls: Iterable<string>) => Traffic,
	options: SiteOptions,
): Array<PageEntry & Traffic> {
	return records
		.filter((record) => failedOf(record).length > 0)
		.map((record) => ({ entry: pageEntry(record, options), ...of([String(record.url ?? '')]) }))
		.sort(
			(a, b) =>
				b.clicks - a.clicks ||
				(a.entry.score ?? 101) - (b.entry.score ?? 101) ||
				Number(a.entry.id) - Number(b.entry.id),
		)
		.slice(0, options.worstPages)
		.map(({ entry, clicks, impressions }) => ({ ...entry, clicks, impressions }));
}

/**
 * A site's traffic fields: `records` its pages (one report a page), `site` its failing checks,
 * worst pages and groups as its item has them, `declared` the Page Groups they were made by,
 * `options` the site options (Worst Pages By → Most Clicks ranks the worst pages anew).
 */
export function siteTraffic(
	records: readonly IDataObject[],
	rows: SearchConsoleRows,
	site: Pick<SiteHealth, 'failing_checks' | 'worst_pages'> & {
		groups?: GroupFigures[];
		breaches?: Breach[];
	},
	declared: readonly PageGroup[],
	options?: SiteOptions,
): SiteTraffic {
	const byPage = trafficByPage(rows);
	const of = trafficOf(byPage);
	const urls = records.map((record) => String(record.url ?? ''));
	const without = urls.filter((url) => !byPage.has(trafficKey(url)));
	const failingOn = (check: string) =>
		records
			.filter((record) => checkStates(record.results).get(check)?.passed === false)
			.map((record) => String(record.url ?? ''));
	const checks = site.failing_checks.map((check) => ({
		...check,
		...affected(of(failingOn(check.check))),
	}));
	const inGroup = (name: string) => urls.filter((url) => groupOf(url, declared) === name);
	// A breach: the clicks of every page breaking it, not only the few it lists.
	const breach = (broken: Breach) => ({
		...broken,
		...affected(of(breachRecords(records, declared, broken).map(({ url }) => String(url ?? '')))),
	});
	const total = of(urls);
	return {
		traffic_clicks: total.clicks,
		traffic_impressions: total.impressions,
		pages_with_traffic: urls.length - without.length,
		traffic_period: rows.period ?? null,
		traffic_coverage: coverage(urls.length - without.length, urls.length),
		pages_without_traffic: without,
		failing_checks: checks,
		fix_first: fixFirst(checks),
		worst_pages:
			options?.worstBy === 'clicks'
				? mostClicks(records, of, options)
				: site.worst_pages.map((page) => ({ ...page, ...of([String(page.url ?? '')]) })),
		...(site.groups && {
			groups: site.groups.map((group) => ({
				...group,
				...affected(of(inGroup(group.name))),
				breaches: group.breaches.map(breach),
			})),
		}),
		...(site.breaches && { breaches: site.breaches.map(breach) }),
	};
}

/**
 * One Digest's site with Search Console Data: its clicks, coverage, the clicks and impressions of its
 * pages failing any check (each page once) and its first fix (null: no failing check).
 */
export function digestTraffic(
	records: readonly IDataObject[],
	rows: SearchConsoleRows,
	site: Pick<SiteHealth, 'failing_checks' | 'worst_pages'>,
): DigestTraffic {
	const traffic = siteTraffic(records, rows, site, []);
	const failing = records.filter((record) =>
		[...checkStates(record.results).values()].some(({ passed }) => passed === false),
	);
	return {
		traffic_clicks: traffic.traffic_clicks,
		traffic_impressions: traffic.traffic_impressions,
		pages_with_traffic: traffic.pages_with_traffic,
		traffic_coverage: traffic.traffic_coverage,
		...affected(trafficOf(trafficByPage(rows))(failing.map((record) => String(record.url ?? '')))),
		fix_first: traffic.fix_first[0] ?? null,
	};
}
