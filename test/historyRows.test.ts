import {
	addRun,
	emptyHistory,
	HISTORY_COLUMNS,
	historyOfRuns,
	missingColumns,
	recordOfRow,
	rowOf,
} from '../nodes/PhpRank/history/model';
import { recordOf } from './harness/siteOverMonths';

/*
 * A site's history as rows of an n8n data table (History Store → Data Table): what a row says,
 * read back, and a site's rows folded into the same history the workflow's static data keeps.
 */

const START = Date.parse('2026-01-05T08:00:00Z') / 1000;
const record = (run: number, failing = ['title']) => recordOf(START, run, { failing });

const ids = { execution: '1234', workflow: 'wf1' };

describe('a run as a row of the history table', () => {
	it('names every column in words, the date as a date, and the failing checks with their pages', () => {
		const row = rowOf(
			'acme.com',
			record(0, ['robots', 'title']),
			[
				{ check: 'title', importance: 'high', pages: 12 },
				{ check: 'robots', importance: 'medium', pages: 1 },
			],
			ids,
		);
		expect(row).toEqual({
			site: 'acme.com',
			run_date: '2026-01-05T08:00:00Z',
			average_score: 70,
			health_score: 60,
			pages: 40,
			good_pages: 20,
			decent_pages: 15,
			bad_pages: 5,
			failing_checks: 'robots (1 page), title (12 pages)',
			execution_id: '1234',
			workflow_id: 'wf1',
		});
		expect(Object.keys(row)).toEqual(HISTORY_COLUMNS.map(({ name }) => name));
		for (const { name } of HISTORY_COLUMNS) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
	});

	it('reads back the record it was written from, with or without page counts, and skips a row without a date', () => {
		const written = record(3, ['meta_description', 'title']);
		const row = rowOf('acme.com', written, [], ids);
		expect(row.failing_checks).toBe('meta_description, title');
		expect(recordOfRow({ ...row })).toEqual(written);
		expect(
			recordOfRow({ ...row, failing_checks: 'title (3 pages), robots (1 page)' })?.failing,
		).toEqual(['title', 'robots']);
		expect(recordOfRow({ ...row, average_score: null })?.average).toBeNull();
		expect(recordOfRow({ ...row, run_date: 'last week' })).toBeNull();
	});
});

describe('a site’s rows as its history', () => {
	it('folds to the history the static data keeps, in date order whatever order the rows came in', () => {
		let kept = emptyHistory();
		const runs = [0, 1, 2, 3, 4].map((run) => ({ record: record(run), execution: `e${run}` }));
		for (const { record: r, execution } of runs) kept = addRun(kept, r, execution);
		expect(historyOfRuns([...runs].reverse())).toEqual(kept);
	});

	it('keeps both runs of two workers at the same moment, ordered by run date', () => {
		const history = historyOfRuns([
			{ record: record(1), execution: 'b' },
			{ record: { ...record(1), at: record(1).at - 60 }, execution: 'a' },
		]);
		expect(history.runs).toBe(2);
		expect(history.records.map(({ at }) => at)).toEqual([record(1).at - 60, record(1).at]);
	});
});

describe('a table the history can use', () => {
	it('has every column with its type; what is missing or of another type is named', () => {
		expect(missingColumns(HISTORY_COLUMNS)).toEqual([]);
		const columns = HISTORY_COLUMNS.filter(({ name }) => name !== 'failing_checks').map((column) =>
			column.name === 'run_date' ? { ...column, type: 'string' } : column,
		);
		expect(missingColumns(columns)).toEqual([
			'run_date (date, not string)',
			'failing_checks (string)',
		]);
	});
});
