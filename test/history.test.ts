import { readBranding } from '../nodes/PhpRank/engine/branding';
import {
	decodeHistory,
	decodePageHistory,
	encodeHistory,
	encodePageHistory,
} from '../nodes/PhpRank/history/encode';
import { historyLengthOption } from '../nodes/PhpRank/descriptions/report/history';
import {
	HISTORY_LENGTH,
	historyFields,
	siteHistoryFields,
} from '../nodes/PhpRank/history/historyFields';
import { siteIssues } from '../nodes/PhpRank/history/issues';
import { siteHistoryOutput } from '../nodes/PhpRank/operations/createOrRerun/siteItem';
import {
	addRun,
	emptyHistory,
	failingPagesText,
	groupCheck,
	PAGE_RUNS_KEPT,
	pageRecord,
	RUNS_KEPT,
	runRecord,
	type RunRecord,
	type SiteHistory,
} from '../nodes/PhpRank/history/model';
import {
	brandingHeader,
	historyChart,
	historyLine,
	issueLines,
	issuesHtml,
} from '../nodes/PhpRank/engine/render';
import type { SiteSummary } from '../nodes/PhpRank/site/types';
import { recordOf } from './harness/siteOverMonths';
import { CHECK_NAMES } from './server';

const WEEK = 7 * 24 * 3600;
const START = Date.parse('2024-01-01T06:00:00Z') / 1000;
const record = (run: number, over: Partial<RunRecord> = {}) => recordOf(START, run, over);

function runs(count: number, make: (run: number) => RunRecord = record): SiteHistory {
	let history = emptyHistory();
	for (let run = 0; run < count; run++) history = addRun(history, make(run), `exec-${run}`);
	return history;
}

const roundTrip = (history: SiteHistory, table: string[] = []) =>
	decodeHistory(encodeHistory(history, table), table);

describe('a site history keeps one record per production run', () => {
	it('adds a record per execution and replaces it when the same execution writes again (Retry On Fail)', () => {
		let history = addRun(emptyHistory(), record(0), '101');
		history = addRun(history, record(1), '102');
		history = addRun(history, record(1, { average: 55 }), '102');
		expect(history.runs).toBe(2);
		expect(history.records.map(({ average }) => average)).toEqual([70, 55]);
	});

	it('keeps the last 104 runs and the first run ever', () => {
		const history = runs(RUNS_KEPT + 6);
		expect(history.records).toHaveLength(RUNS_KEPT);
		expect(history.runs).toBe(RUNS_KEPT + 6);
		expect(history.records[0].at).toBe(START + 6 * WEEK);
		expect(history.first).toEqual({ at: START, average: 70 });
	});

	it('does not change the history it is given (a manual run shows, never saves)', () => {
		const before = runs(3);
		const shown = addRun(before, record(3), 'manual');
		expect(before.records).toHaveLength(3);
		expect(shown.records).toHaveLength(4);
	});
});

describe('the static-data string', () => {
	it('reads back exactly what was written, nulls, negative changes and check tables included', () => {
		const history = runs(30, (run) =>
			record(run, {
				average: run === 4 ? null : 50 + ((run * 7) % 40) + 0.3,
				health: run === 5 ? null : (run * 13) % 101,
				pages: 40 - (run % 3),
				good: run % 7,
				decent: 30 - (run % 4),
				bad: run % 3 ? 0 : 2,
				failing: CHECK_NAMES.filter((_, index) => (index + run) % 3 === 0),
			}),
		);
		expect(roundTrip(history)).toEqual(history);
	});

	it('carries a streak that began before the oldest record kept', () => {
		const history = runs(RUNS_KEPT + 10, (run) =>
			record(run, { failing: run >= 3 ? ['title', 'favicon'] : ['favicon'] }),
		);
		expect(history.carried.get('favicon')).toEqual({ ordinal: 1, at: START });
		expect(history.carried.get('title')).toEqual({ ordinal: 4, at: START + 3 * WEEK });
		expect(roundTrip(history)).toEqual(history);
	});

	it('starts afresh from anything it cannot read', () => {
		for (const bad of [undefined, 42, '', '2|1|x||', '1|zz|e||', '1|1|e|||9,9,9', '1|1|e|||1A'])
			expect(decodeHistory(bad, [])).toEqual(emptyHistory());
		// A check beyond the node's check table cannot be read either.
		const table: string[] = [];
		const encoded = encodeHistory(
			runs(2, (run) => record(run, { failing: ['a', 'b'] })),
			table,
		);
		expect(decodeHistory(encoded, table).records).toHaveLength(2);
		expect(decodeHistory(encoded, ['a'])).toEqual(emptyHistory());
	});

	it('stays under 2 KB per site at 104 runs with every check failing somewhere', () => {
		// A 500-page site, weekly runs a few minutes apart in time, every figure moving each run,
		// every one of the 35 checks failing on some page, and three checks coming and going.
		// Last, runs at irregular times (a webhook rather than a schedule), hours to ten days apart.
		const sizes = [
			[0, 1],
			[3, 1],
			[0, 0],
		].map(([churn, weekly]) => {
			const history = runs(RUNS_KEPT, (run) =>
				record(run, {
					at: weekly
						? START + run * WEEK + ((run * 97) % 900)
						: START + run * 5 * 24 * 3600 + ((run * run * 7919) % (4 * 24 * 3600)),
					average: 60 + ((run * 37) % 250) / 10,
					health: 40 + ((run * 11) % 45),
					pages: 500 + (run % 4),
					good: 200 + ((run * 7) % 60),
					decent: 298 + (run % 4) - ((run * 7) % 60) - (run % 9),
					bad: 2 + (run % 9),
					failing: CHECK_NAMES.filter((_, index) => index >= churn || (run + index) % 2 === 0),
				}),
			);
			const table: string[] = [];
			const encoded = encodeHistory(history, table);
			expect(decodeHistory(encoded, table)).toEqual(history);
			return Buffer.byteLength(JSON.stringify(encoded));
		});
		const table = Buffer.byteLength(JSON.stringify(CHECK_NAMES));
		console.log(
			`history of 104 runs: ${sizes.join(' / ')} bytes per site (steady / churning checks / irregular times), check table ${table} bytes per node`,
		);
		for (const size of sizes) expect(size).toBeLessThanOrEqual(2048);
	});

	it('Ticket Per → Page: a 100-page site, 5 checks failing on 40 pages, 150 weekly runs', () => {
		// Steady, then with one page a week fixed and another starting to fail.
		const [steady, churning] = [0, 1].map((churn) => {
			let [history, pairs] = [emptyHistory(), [] as string[]];
			for (let run = 0; run < 150; run++) {
				pairs = Array.from(
					{ length: 40 },
					(_, at) => `/products/item-${(churn * run + at) % 100}`,
				).flatMap((page) => CHECK_NAMES.slice(0, 5).map((check) => groupCheck(page, check)));
				history = addRun(history, pageRecord(START + run * WEEK, pairs), `${run}`, PAGE_RUNS_KEPT);
			}
			const table: string[] = [];
			const stored = JSON.stringify(encodePageHistory(history, table));
			expect(decodePageHistory(JSON.parse(stored), table)).toEqual(history);
			return { workflow: stored.length, row: failingPagesText(pairs).length };
		});
		console.log(`pages' history: ${JSON.stringify({ steady, churning })} characters per site`);
		expect(Math.max(steady.workflow, churning.workflow)).toBeLessThanOrEqual(2560);
		expect(steady.row).toBeLessThanOrEqual(4096);
		expect(decodePageHistory(['1|1|e||', '/a', 'z'], [])).toEqual(emptyHistory());
	});
});

describe('how long each problem has been open', () => {
	it('dates each failing check from the first run of its current streak', () => {
		const failing = [
			['title'],
			['title', 'favicon'],
			['favicon'],
			['favicon', 'title', 'robots'],
			['favicon', 'title'],
		];
		const history = runs(failing.length, (run) => record(run, { failing: failing[run] }));
		const issues = siteIssues(history, [
			{ check: 'title', importance: 'high', pages: 3 },
			{ check: 'favicon', importance: 'medium', pages: 9 },
		]);
		expect(issues.open_issues).toEqual([
			{
				check: 'favicon',
				importance: 'medium',
				pages: 9,
				failing_since: '2024-01-08T06:00:00Z',
				age_runs: 4,
				age_days: 21,
			},
			{
				check: 'title',
				importance: 'high',
				pages: 3,
				failing_since: '2024-01-22T06:00:00Z',
				age_runs: 2,
				age_days: 7,
			},
		]);
		expect(issues.new_issues).toEqual([]);
		expect(issues.resolved_issues).toEqual([
			{ check: 'robots', failing_since: '2024-01-22T06:00:00Z', age_runs: 1 },
		]);
	});

	it('counts a streak older than the records kept from where it began', () => {
		const history = roundTrip(runs(RUNS_KEPT + 20, (run) => record(run, { failing: ['title'] })));
		const [open] = siteIssues(history, [
			{ check: 'title', importance: 'high', pages: 1 },
		]).open_issues;
		expect(open).toMatchObject({ age_runs: RUNS_KEPT + 20, failing_since: '2024-01-01T06:00:00Z' });
	});

	it('names nothing new on a site’s first run', () => {
		const history = runs(1);
		const issues = siteIssues(history, [{ check: 'title', importance: 'high', pages: 1 }]);
		expect(issues.new_issues).toEqual([]);
		expect(issues.open_issues[0].age_runs).toBe(1);
	});
});

describe('the history fields of the site item', () => {
	it('lists the last 12 runs by default, with the sparkline and the changes', () => {
		const history = runs(20, (run) => record(run, { average: 60 + run }));
		const fields = historyFields(history);
		expect((fields.history as unknown[]).length).toBe(12);
		expect(fields.history_text).toBe('68 ▁▂▂▃▄▄▅▅▆▇▇█ 79');
		expect(fields).toMatchObject({ first_run_at: '2024-01-01T06:00:00Z', change_since_first: 19 });
		expect(fields.change_4_runs).toBe(4);
		expect(historyFields(history, 3).history).toHaveLength(3);
		expect(historyFields(emptyHistory())).toMatchObject({
			history: [],
			history_text: '',
			first_run_at: null,
			change_since_first: null,
			change_4_runs: null,
		});
	});

	it('makes a run record from the site figures, dated by its newest analysis', () => {
		const site = {
			average_score: 71.4,
			health_score: 80,
			pages: 5,
			good_pages: 2,
			decent_pages: 2,
			bad_pages: 1,
			failing_checks: [{ check: 'title', importance: 'high', pages: 2 }],
			analysed_to: '2026-01-31T09:15:02.000000Z',
		};
		expect(runRecord(site, 0)).toEqual({
			at: Date.parse('2026-01-31T09:15:02Z') / 1000,
			average: 71.4,
			health: 80,
			pages: 5,
			good: 2,
			decent: 2,
			bad: 1,
			failing: ['title'],
		});
	});
});

describe('Report Branding', () => {
	it('takes a web logo and a #rrggbb colour, and refuses anything else naming the field', () => {
		expect(
			readBranding({
				agencyName: ' Acme ',
				logoUrl: 'https://a.example/l.png',
				accentColor: '#A1b2C3',
			}),
		).toEqual({
			branding: {
				agencyName: 'Acme',
				logoUrl: 'https://a.example/l.png',
				accentColor: '#A1b2C3',
				introText: '',
			},
		});
		for (const [field, value, problem] of [
			['logoUrl', 'javascript:alert(1)', 'Logo URL must be a web address (http:// or https://)'],
			['logoUrl', 'ftp://a.example/l.png', 'Logo URL must be a web address (http:// or https://)'],
			['accentColor', 'red', 'Accent Color must be a colour written #rrggbb'],
			['accentColor', '#fff', 'Accent Color must be a colour written #rrggbb'],
		])
			expect(readBranding({ [field]: value })).toMatchObject({
				problem: `${problem}, not "${value}"`,
			});
	});
});

describe('the history and issues for people', () => {
	const history = runs(12, (run) =>
		record(run, {
			average: [71, 72, 74, 73, 75, 77, 76, 78, 79, 80, 82, 83][run],
			failing: run === 11 ? ['title', 'favicon'] : ['favicon', 'robots'],
		}),
	);
	const site = {
		project: 'shop.example.com',
		...siteHistoryFields(history, true, [
			{ check: 'favicon', importance: 'medium', pages: 5 },
			{ check: 'title', importance: 'high', pages: 1 },
		]),
	};

	it('says the history and the issues in summary_text lines', () => {
		expect(historyLine(site)).toBe(
			'History (12 runs): 71 ▁▂▃▂▃▅▄▅▆▆▇█ 83, +12 since 2024-01-01, +5 over 4 runs',
		);
		expect(issueLines(site)).toEqual([
			'Open issues: favicon 12 runs (since 2024-01-01, 5 pages); title 1 run (since 2024-03-18, 1 page)',
			'New: title',
			'Resolved: robots',
		]);
		expect(historyLine({ ...site, history_saved: false })).toMatch(
			/this run not saved: manual execution\)$/,
		);
	});

	it('keeps the oldest five open issues in summary_text and counts the rest', () => {
		const many = Array.from({ length: 8 }, (_, i) => ({
			check: `check${i + 1}`,
			importance: 'low',
			pages: 1,
			failing_since: '2024-03-18T00:00:00.000Z',
			age_runs: 1,
			age_days: 0,
		}));
		const none = { open_issues: [], new_issues: [], resolved_issues: [] };
		const [open] = issueLines({ ...none, open_issues: many });
		expect(open).toMatch(
			/^Open issues: check1 1 run .*; check5 1 run \(since 2024-03-18, 1 page\) \(\+3 more\)$/,
		);
		expect(open).not.toContain('check6');
		expect(issueLines({ ...none, new_issues: many.slice(0, 5) })).toEqual([
			'New: check1, check2, check3, check4, check5',
		]);
	});

	it('Simplify: lists as text keep five and count the rest; summary_html only with E-Mail HTML', () => {
		const failing = Array.from({ length: 7 }, (_, i) => ({
			check: `check${i + 1}`,
			importance: 'low',
			pages: 1,
		}));
		const fields = siteHistoryFields(history, true, failing);
		const figures: SiteSummary = {
			project: 'shop.example.com',
			pages: 1,
			created: 0,
			rerun: 1,
			previous_average_score: 70,
			average_score: 71,
			average_change: 1,
			worse_pages: 0,
			better_pages: 0,
			newly_failing_checks: [],
			newly_fixed_checks: [],
			biggest_drops: [],
			median_score: 71,
			result_class: 'decent',
			health_score: 100,
			good_pages: 0,
			decent_pages: 1,
			bad_pages: 0,
			failing_checks: failing,
			top_issues: [],
			worst_pages: [],
			analysed_from: null,
			analysed_to: null,
			failed_pages: [],
		};
		const branding = { agencyName: '', logoUrl: '', accentColor: '', introText: '' };
		const flat = siteHistoryOutput(figures, fields, { simplify: true, html: false }, branding);
		expect(flat.failing_checks).toBe(
			'check1 (low) ×1, check2 (low) ×1, check3 (low) ×1, check4 (low) ×1, check5 (low) ×1 (+2 more)',
		);
		expect(String(flat.open_issues)).toMatch(/^check1 \(low\) ×1 1 runs since .* \(\+2 more\)$/);
		expect(flat).not.toHaveProperty('summary_html');
		const full = siteHistoryOutput(figures, fields, { simplify: false, html: true }, branding);
		expect(full.open_issues).toHaveLength(7);
		expect(String(full.summary_html)).toContain('check7');
	});

	it('draws the chart as table cells: one column per run, no script, no image', () => {
		const html = historyChart(site, '#202124');
		expect(html.match(/<td valign="bottom"/g)).toHaveLength(12);
		expect(html).not.toMatch(/<script|<img|<style|url\(/i);
		expect(html).toContain('>83</td>');
		expect(html).toContain('>1 Jan</td>');
	});

	it('escapes every branding value; the accent colour and logo only as checked', () => {
		const html = brandingHeader({
			agencyName: '<script>alert(1)</script> & Co',
			logoUrl: 'https://agency.example/logo.png?a=1&b="2"',
			accentColor: '#ff0066',
			introText: 'Hello <b>client</b>\nline two',
		});
		expect(html).not.toContain('<script>');
		expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; Co');
		expect(html).toContain('src="https://agency.example/logo.png?a=1&#38;b=&#34;2&#34;"');
		expect(html).toContain('border-top:4px solid #ff0066');
		expect(html).toContain('Hello &#60;b&#62;client&#60;/b&#62;<br>line two');
		expect(
			brandingHeader({ agencyName: '', logoUrl: '', accentColor: '#ff0066', introText: '' }),
		).toBe('');
	});

	it('lists open issues with their age, new and resolved ones', () => {
		const html = issuesHtml(site, '#202124');
		expect(html).toContain(
			'<b>favicon</b> (medium) on 5 pages: open 12 runs, 77 days, since 2024-01-01',
		);
		expect(html).toContain(
			'New since the last run</h3><ul style="margin:0;padding-left:20px"><li style="margin:2px 0">title (high) on 1 page</li>',
		);
		expect(html).toContain('<li style="margin:2px 0">robots, open 11 runs since 2024-01-01</li>');
	});
});

describe('the history options', () => {
	it('show the default and bounds of History Length as the check has them', () => {
		expect(historyLengthOption.default).toBe(HISTORY_LENGTH.default);
		expect(historyLengthOption.typeOptions).toEqual({
			minValue: HISTORY_LENGTH.low,
			maxValue: HISTORY_LENGTH.high,
		});
		expect(RUNS_KEPT).toBe(HISTORY_LENGTH.high);
	});
});
