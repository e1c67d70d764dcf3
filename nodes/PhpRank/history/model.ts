import { BOUNDS } from '../bounds';
import type { GroupFigures, SiteHealth } from '../site/types';

/*
 * The history model, pure: a run (`RunRecord`: what one production run of Create or Re-Run, One
 * Item per Site, keeps of a site), a site's runs (`SiteHistory`: the newest RUNS_KEPT, and where
 * each check's current failing streak began), and a run as a row of the history table (`HistoryRow`,
 * its columns, both ways). Both History Store homes (workflowStore.ts, tableStore.ts) and One Digest
 * build a site's history from these.
 */

/** Runs kept per site: two years of weekly runs. */
export const RUNS_KEPT = BOUNDS.historyLength.high;
/**
 * Runs of a site's pages kept (Ticket Per → Page): the previous one to compare with, and this one
 * (a later try replaces it); where a failing streak began is carried, whether a pair failed before
 * it is not (its ticket tells a regression).
 */
export const PAGE_RUNS_KEPT = 2;

/** One run of a site, as its history keeps it. */
export interface RunRecord {
	/** When the run's pages were analysed: seconds since 1970. */
	at: number;
	/** One decimal; null when no page had a score. */
	average: number | null;
	health: number | null;
	pages: number;
	good: number;
	decent: number;
	bad: number;
	/** The checks that failed on at least one page. */
	failing: string[];
}

/** Where a failing streak began: the run's number (1 = the site's first run) and date. */
export interface StreakStart {
	ordinal: number;
	at: number;
}

export interface SiteHistory {
	/** Runs recorded since the first: the number of the newest record. */
	runs: number;
	/** The execution that wrote the newest record: a later try in it replaces the record. */
	execution: string;
	/** The site's first run ever (kept when its record is dropped). */
	first: { at: number; average: number | null } | null;
	/** Oldest first, at most RUNS_KEPT. */
	records: RunRecord[];
	/** Streaks failing in the oldest record that began before it, by check. */
	carried: Map<string, StreakStart>;
}

export const emptyHistory = (): SiteHistory => ({
	runs: 0,
	execution: '',
	first: null,
	records: [],
	carried: new Map(),
});

/** The run number of `records[index]`. */
export const ordinalOf = (history: SiteHistory, index: number): number =>
	history.runs - history.records.length + 1 + index;

/** Drops the oldest record, carrying the start of each streak that goes on in the next one. */
function dropOldest(history: SiteHistory): void {
	const [oldest, next] = history.records;
	const carried = new Map<string, StreakStart>();
	const still = new Set(next?.failing ?? []);
	for (const check of oldest.failing) {
		if (still.has(check))
			carried.set(
				check,
				history.carried.get(check) ?? { ordinal: ordinalOf(history, 0), at: oldest.at },
			);
	}
	history.records.shift();
	history.carried = carried;
}

/**
 * The history with this run's record added, or, when the newest record was written by the same
 * execution (Retry On Fail, a second try), replaced. Returns a new history; `history` is unchanged.
 */
export function addRun(
	history: SiteHistory,
	record: RunRecord,
	execution: string,
	kept: number = RUNS_KEPT,
): SiteHistory {
	const next: SiteHistory = {
		...history,
		records: [...history.records],
		carried: new Map(history.carried),
	};
	record = { ...record, failing: [...new Set(record.failing)].sort() };
	const replace = execution !== '' && execution === history.execution && next.records.length > 0;
	if (replace) next.records[next.records.length - 1] = record;
	else {
		next.records.push(record);
		next.runs += 1;
	}
	next.execution = execution;
	if (next.first === null || next.runs === 1)
		next.first = { at: record.at, average: record.average };
	while (next.records.length > kept) dropOldest(next);
	return next;
}

/** Between the parts of a finding's key, `site · group · check`. */
export const KEY_SEPARATOR = ' · ';

/** A page group's check as the history of its findings names it: `Products · title`. */
export const groupCheck = (group: string, check: string) => `${group}${KEY_SEPARATOR}${check}`;

/** A group's check named back: its group and check (a check's name has no separator; a group's may). */
export function ofGroupCheck(name: string): { group: string; check: string } {
	const at = name.lastIndexOf(KEY_SEPARATOR);
	return { group: name.slice(0, at), check: name.slice(at + KEY_SEPARATOR.length) };
}

/** A run of a site's page groups as a record of its own (Ticket Per → Page Group): no figures, each group's failing checks as `group · check`. */
export function groupRecord(
	at: number,
	groups: ReadonlyArray<{
		name: string;
		pages: number;
		failing_checks: ReadonlyArray<{ check: string }>;
	}>,
): RunRecord {
	// A group no page matched has nothing failing (and no row in a history table).
	const failing = groups
		.filter(({ pages }) => pages > 0)
		.flatMap(({ name, failing_checks }) =>
			failing_checks.map(({ check }) => groupCheck(name, check)),
		);
	return { at, average: null, health: null, pages: 0, good: 0, decent: 0, bad: 0, failing };
}

/** A run of a site's pages as a record of its own (Ticket Per → Page): no figures, its failing `page · check` pairs. */
export const pageRecord = (at: number, pairs: readonly string[]): RunRecord => ({
	...groupRecord(at, []),
	failing: [...pairs],
});

/** A date (seconds since 1970) as the history writes it: `2026-01-05T08:00:00Z`. */
export const isoDate = (seconds: number): string =>
	new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** One run as `history` lists it. */
export type HistoryEntry = {
	date: string;
	average_score: number | null;
	health_score: number | null;
	pages: number;
	good_pages: number;
	decent_pages: number;
	bad_pages: number;
};

/** The figures a run record is made of: a site's, a page group's, a compared page's. */
export type RunFigures = Pick<
	SiteHealth,
	'average_score' | 'health_score' | 'pages' | 'good_pages' | 'decent_pages' | 'bad_pages'
> & { analysed_to: string | null; failing_checks: ReadonlyArray<{ check: string }> };

/** A run's record from its figures (the one builder of a record); dated by its newest analysis, else `now` (seconds). */
export function runRecord(figures: RunFigures, now: number): RunRecord {
	const analysed = figures.analysed_to === null ? NaN : Date.parse(figures.analysed_to);
	return {
		at: Number.isFinite(analysed) ? Math.floor(analysed / 1000) : Math.floor(now),
		average: figures.average_score,
		health: figures.health_score,
		pages: figures.pages,
		good: figures.good_pages,
		decent: figures.decent_pages,
		bad: figures.bad_pages,
		failing: figures.failing_checks.map(({ check }) => check),
	};
}

/** One run as `history` lists it. */
export function historyEntry(record: RunRecord): HistoryEntry {
	return {
		date: isoDate(record.at),
		average_score: record.average,
		health_score: record.health,
		pages: record.pages,
		good_pages: record.good,
		decent_pages: record.decent,
		bad_pages: record.bad,
	};
}

/* A run as a row of the history table (History Store → Data Table). */

export type ColumnType = 'string' | 'number' | 'boolean' | 'date';

/** The columns the node writes and reads, in the order a table it creates shows them. */
export const HISTORY_COLUMNS: ReadonlyArray<{ name: string; type: ColumnType }> = [
	{ name: 'site', type: 'string' },
	{ name: 'run_date', type: 'date' },
	{ name: 'average_score', type: 'number' },
	{ name: 'health_score', type: 'number' },
	{ name: 'pages', type: 'number' },
	{ name: 'good_pages', type: 'number' },
	{ name: 'decent_pages', type: 'number' },
	{ name: 'bad_pages', type: 'number' },
	{ name: 'failing_checks', type: 'string' },
	{ name: 'execution_id', type: 'string' },
	{ name: 'workflow_id', type: 'string' },
];

/**
 * The columns of page groups (Page Groups set): a site's run has one row of its own (`page_group`
 * empty) and one per group, its figures and whether it held its budget. A table made before them
 * gets them added on the first production run with Page Groups; its rows stay the site's.
 */
export const GROUP_COLUMNS: ReadonlyArray<{ name: string; type: ColumnType }> = [
	{ name: 'page_group', type: 'string' },
	{ name: 'budget_passed', type: 'boolean' },
	{ name: 'breaches', type: 'string' },
];

/**
 * Ticket Per → Page: the site's own row says which checks failed on which page
 * (`/a: title, favicon; /b: title`, `failingPagesText`). Added to the table on the first production
 * run with Ticket Per → Page; a row without it (written before) is no run of the pages.
 */
export const PAGE_COLUMNS: ReadonlyArray<{ name: string; type: ColumnType }> = [
	{ name: 'failing_pages', type: 'string' },
];

/** The group columns of a row (with Page Groups only): null on the site's own row but `budget_passed`, every budget held. */
export type GroupCells = {
	page_group: string | null;
	budget_passed: boolean | null;
	/** The breaches in words, `; `-separated ('' for none). */
	breaches: string;
};

/** One row as the node writes it (n8n adds id, createdAt and updatedAt): a run as `history` lists it, and more. */
export type HistoryRow = { site: string; run_date: string } & Omit<HistoryEntry, 'date'> & {
		/** `title (12 pages), robots (1 page)`: the checks that failed, on how many pages. */
		failing_checks: string;
		execution_id: string;
		workflow_id: string;
	} & Partial<GroupCells> & { failing_pages?: string };

/** The columns a table lacks, or has with another type, in words (empty when it fits); the group columns only when it has them. */
export function missingColumns(columns: ReadonlyArray<{ name: string; type: string }>): string[] {
	const has = new Map(columns.map(({ name, type }) => [name, type]));
	const optional = [...GROUP_COLUMNS, ...PAGE_COLUMNS].filter(({ name }) => has.has(name));
	return [...HISTORY_COLUMNS, ...optional]
		.filter(({ name, type }) => has.get(name) !== type)
		.map(({ name, type }) =>
			has.has(name) ? `${name} (${type}, not ${String(has.get(name))})` : `${name} (${type})`,
		);
}

/** The columns of `wanted` a table made before them lacks. */
export const columnsToAdd = (
	wanted: ReadonlyArray<{ name: string; type: ColumnType }>,
	columns: ReadonlyArray<{ name: string }>,
) => wanted.filter(({ name }) => !columns.some((column) => column.name === name));

/** A run's failing `page · check` pairs as the site's row writes them: `/a: favicon, title; /b: title`, or `none` (never empty: a row with no pairs is still a run). */
export function failingPagesText(pairs: readonly string[]): string {
	if (pairs.length === 0) return 'none';
	const byPage = new Map<string, string[]>();
	for (const pair of [...new Set(pairs)].sort()) {
		const { group: page, check } = ofGroupCheck(pair);
		byPage.set(page, [...(byPage.get(page) ?? []), check]);
	}
	return [...byPage].map(([page, checks]) => `${page}: ${checks.join(', ')}`).join('; ');
}

/** The pairs a row's `failing_pages` names (a URL path has no `; ` or `: `, its spaces encoded). */
export const pairsOfText = (text: string): string[] =>
	text
		.split('; ')
		.filter((entry) => entry.startsWith('/'))
		.flatMap((entry) => {
			const at = entry.lastIndexOf(': ');
			const page = entry.slice(0, at);
			return entry
				.slice(at + 2)
				.split(', ')
				.map((check) => groupCheck(page, check));
		});

/** A group's row (`page_group` set) rather than the site's own. */
export const isGroupRow = (row: Record<string, unknown>) =>
	typeof row.page_group === 'string' && row.page_group !== '';

const pagesText = (pages: number) => `${pages} page${pages === 1 ? '' : 's'}`;

/** The checks of a run as the row writes them, with their pages when the run counted them. */
function failingText(
	record: RunRecord,
	counted: ReadonlyArray<{ check: string; pages: number; importance?: string }>,
): string {
	const pages = new Map(counted.map(({ check, pages: count }) => [check, count]));
	return record.failing
		.map((check) => (pages.has(check) ? `${check} (${pagesText(pages.get(check)!)})` : check))
		.join(', ');
}

/** The checks a row names, without their page counts. */
function failingOf(text: unknown): string[] {
	return String(text ?? '')
		.split(',')
		.map((entry) => entry.replace(/\(\d+ pages?\)\s*$/, '').trim())
		.filter(Boolean);
}

/** A run of a site as its row. */
export function rowOf(
	site: string,
	record: RunRecord,
	counted: ReadonlyArray<{ check: string; pages: number; importance?: string }>,
	{ execution, workflow }: { execution: string; workflow: string },
): HistoryRow {
	const { date, ...figures } = historyEntry(record);
	return {
		site,
		run_date: date,
		...figures,
		failing_checks: failingText(record, counted),
		execution_id: execution,
		workflow_id: workflow,
	};
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const score = (value: unknown) =>
	typeof value === 'number' && Number.isFinite(value) ? value : null;

/** A row as a run record (null for a row without a readable date: a person's edit gone wrong). */
export function recordOfRow(row: Record<string, unknown>): RunRecord | null {
	const at = Date.parse(String(row.run_date ?? ''));
	if (!Number.isFinite(at)) return null;
	return {
		at: Math.floor(at / 1000),
		average: score(row.average_score),
		health: score(row.health_score),
		pages: count(row.pages),
		good: count(row.good_pages),
		decent: count(row.decent_pages),
		bad: count(row.bad_pages),
		failing: failingOf(row.failing_checks),
	};
}

/** A run as a history holds it, and the execution that wrote it ('' for none). */
export interface DatedRun {
	record: RunRecord;
	execution: string;
	/** When its row was written (the table's `createdAt`, seconds since 1970): the audit, however old its analysis. */
	written?: number;
}

/** Whether a row was there before this execution (a manual one, '', wrote none): what a retry does not read again. */
export const notWrittenBy = (execution: string) => (row: Record<string, unknown>) =>
	execution === '' || String(row.execution_id ?? '') !== execution;

/** A site's row as a run with the execution that wrote it; null for a row without a readable date, and for a group's row. */
export function datedRunOfRow(row: Record<string, unknown>): DatedRun | null {
	if (isGroupRow(row)) return null;
	const record = recordOfRow(row);
	if (!record) return null;
	const written = Date.parse(String(row.createdAt ?? ''));
	const execution = String(row.execution_id ?? '');
	return Number.isFinite(written)
		? { record, execution, written: Math.floor(written / 1000) }
		: { record, execution };
}

/** A site's runs folded into its history, oldest first (runs of one date in the order given). */
export function historyOfRuns(runs: readonly DatedRun[], kept: number = RUNS_KEPT): SiteHistory {
	return [...runs]
		.sort((a, b) => a.record.at - b.record.at)
		.reduce(
			(history, { record, execution }) => addRun(history, record, execution, kept),
			emptyHistory(),
		);
}

/** The runs of the site's page groups among a table's rows, each run's group rows one record (this execution's left out). */
export function groupHistoryOfRows(
	rows: ReadonlyArray<Record<string, unknown>>,
	site: string,
	execution: string,
): SiteHistory {
	const before = notWrittenBy(execution);
	const runs = new Map<string, DatedRun>();
	for (const row of rows) {
		const record = row.site === site && isGroupRow(row) && before(row) ? recordOfRow(row) : null;
		if (!record) continue;
		const writer = String(row.execution_id ?? '');
		const id = `${writer} ${record.at}`;
		const run = runs.get(id) ?? { record: groupRecord(record.at, []), execution: writer };
		run.record.failing.push(
			...record.failing.map((check) => groupCheck(String(row.page_group), check)),
		);
		runs.set(id, run);
	}
	return historyOfRuns([...runs.values()]);
}

/** The runs of the site's pages among a table's rows (Ticket Per → Page): its own rows with `failing_pages` (this execution's left out). */
export function pageHistoryOfRows(
	rows: ReadonlyArray<Record<string, unknown>>,
	site: string,
	execution: string,
): SiteHistory {
	const before = notWrittenBy(execution);
	const runs = rows.flatMap((row): DatedRun[] => {
		const text = row.failing_pages;
		const dated =
			row.site === site && before(row) && typeof text === 'string' && datedRunOfRow(row);
		if (!dated) return [];
		return [{ record: pageRecord(dated.record.at, pairsOfText(text)), execution: dated.execution }];
	});
	return historyOfRuns(runs, PAGE_RUNS_KEPT);
}

/** A site's page groups at one run as rows: each group's figures, whether it held its budget, its breaches. */
export function groupRowsOf(
	site: string,
	at: number,
	groups: readonly GroupFigures[],
	ids: { execution: string; workflow: string },
): HistoryRow[] {
	// A group no page matched has nothing to keep.
	return groups
		.filter(({ pages }) => pages > 0)
		.map((group) => ({
			...rowOf(site, runRecord({ ...group, analysed_to: null }, at), group.failing_checks, ids),
			page_group: group.name,
			budget_passed: group.passed,
			breaches: group.breaches.map(({ text }) => text).join('; '),
		}));
}

/**
 * The groups over budget at the site's newest run that wrote group rows, but this execution's
 * (null: no such run, e.g. the first with Page Groups).
 */
export function brokenGroupsBefore(
	rows: ReadonlyArray<Record<string, unknown>>,
	site: string,
	execution: string,
): string[] | null {
	const before = notWrittenBy(execution);
	const groupRows = rows.filter((row) => row.site === site && isGroupRow(row) && before(row));
	// The run before: the execution of the newest group row (by date, then as n8n numbered it).
	const newest = groupRows.reduce<Record<string, unknown> | undefined>((latest, row) => {
		if (!latest) return row;
		const byDate = Date.parse(String(row.run_date)) - Date.parse(String(latest.run_date));
		return byDate > 0 || (byDate === 0 && Number(row.id) > Number(latest.id)) ? row : latest;
	}, undefined);
	if (!newest) return null;
	return groupRows
		.filter((row) => row.execution_id === newest.execution_id && row.budget_passed === false)
		.map((row) => String(row.page_group));
}
