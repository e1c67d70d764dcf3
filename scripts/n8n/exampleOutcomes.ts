/**
 * What the examples put out against the seeded test server (checks.ts `seedServer`), as data and the checks
 * on it, run by the package suite (`n8n execute`) and the queue suite (on their schedules, on a worker) alike:
 * the outputs of one run, and the requests the caller picked out as that run's.
 */
import {
	TEST_API_KEY,
	USER_IDS,
	type PhpRankServer,
	type RecordedRequest,
} from '../../test/server';
import { deletedOneToFour, describeRequests, json, setResult } from './checks';
import type { ExecutionItem } from './cli';
import type { StoredExecution } from './db';
import { Fatal, same, type Report } from './report';
import { pollAt, TRIGGER_TYPE, type WorkflowJson } from './workflow';

type Outputs = Record<string, ExecutionItem[]>;
type Check = Report['check'];

export const DIGEST = {
	file: 'weekly-bad-reports-digest.json',
	/** the seed's bad reports, worst first */
	ids: [4, 8, 1, 5],
	subject: 'phpRank weekly digest: 4 bad reports',
	lines: [
		'- blog.acme.io/seo-basics: score 12 (bad), ',
		'- shop.example.org/cart: score 20 (bad), ',
		'- example.com: score 31 (bad), ',
		'- blog.acme.io: score 45 (bad), ',
	],
};

export const CREATION = {
	file: 'scheduled-report-creation.json',
	urls: [
		'https://example.com/',
		'https://example.com/pricing',
		'https://shop.example.org/products/widget-pro',
	],
	/** url, project, privacy of each report that comes out, in order */
	reports: [
		['example.com', 'example.com', 'private'],
		['example.com/pricing', 'example.com', 'private'],
		['shop.example.org/products/widget-pro', 'shop.example.org', 'private'],
	],
};

export const HOUSEKEEPING = {
	file: 'delete-old-reports.json',
	/** the seed's reports older than 90 days; 5-8 are newer, 9 and 10 another user's */
	deleted: [1, 2, 3, 4],
};

/** The alert example's scenario: a drop of report 6, then a drop of 7 and a rise of 8 (no alert), each event once. */
export const ALERT = {
	file: 'alert-on-score-drop.json',
	first: [[6, 20]], // docs.widgets.dev: 91 good -> 20 bad
	then: [
		[7, 10], // news.sample.net: 70 decent -> 10 bad
		[8, 85], // shop.example.org/cart: 20 bad -> 85 good (a rise: no alert)
	],
	events: [[6], [7]],
	text: 'news.sample.net went from decent (70) to bad (10). Failed checks: ',
};

/** A copy of the alert example whose phpRank Trigger polls at `second`(s) of every minute, and the trigger's name. */
export function alertPollingAt(
	example: WorkflowJson,
	second: number | number[],
	copy: Partial<WorkflowJson> = {},
): { wf: WorkflowJson; trigger: string } {
	const wf = { ...structuredClone(example), ...copy };
	const trigger = wf.nodes.find((n) => n.type === TRIGGER_TYPE);
	if (!trigger) throw new Fatal(`examples/${ALERT.file} has no phpRank Trigger`);
	trigger.parameters.pollTimes = pollAt([second].flat());
	return { wf, trigger: trigger.name };
}

/** Each [report id, new score] of a step of the alert scenario. */
export async function changeReports(api: PhpRankServer, steps: number[][]): Promise<void> {
	for (const [id, result] of steps) await setResult(api, id, result);
}

export function checkDigest(check: Check, out: Outputs | undefined, reqs: RecordedRequest[]): void {
	if (out) {
		const got = json(out['Get bad reports']);
		const ids = got.map((r) => r.id);
		check(
			'digest: Get Many returns exactly the bad reports, worst first',
			same(ids, DIGEST.ids),
			got.map((r) => [r.id, r.score]),
		);
		check(
			'digest: every item is a simplified bad report',
			got.every(
				(r) =>
					r.result_class === 'bad' &&
					Number(r.score) < 49 &&
					typeof r.failed_high === 'number' &&
					typeof r.failed_low === 'number' &&
					!('results' in r),
			),
			got[0],
		);
		const summary = json(out['Format digest']);
		const d = summary[0] ?? {};
		check(
			`digest: one summary item, "${DIGEST.subject}", its count and ids`,
			summary.length === 1 &&
				d.subject === DIGEST.subject &&
				d.count === DIGEST.ids.length &&
				same(d.report_ids, DIGEST.ids),
			summary,
		);
		const lines = String(d.text ?? '').split('\n');
		check(
			'digest: summary text: one line per bad report, with url and score',
			lines.length === DIGEST.lines.length && DIGEST.lines.every((l, i) => lines[i].startsWith(l)),
			d.text,
		);
		check(
			'digest: the notification step received the summary',
			same(json(out['Send digest (replace with Gmail or Slack)']), summary),
		);
	}
	check(
		'digest: the server got one GET /api/v1/reports with result=bad, sort_by=result, sort=asc',
		reqs.length === 1 &&
			reqs[0].method === 'GET' &&
			reqs[0].path === '/api/v1/reports' &&
			reqs[0].query.result === 'bad' &&
			reqs[0].query.sort_by === 'result' &&
			reqs[0].query.sort === 'asc',
		describeRequests(reqs),
	);
	check(
		'digest: sent with the Bearer key and Accept: application/json',
		reqs.every(
			(r) =>
				r.headers.authorization === `Bearer ${TEST_API_KEY}` &&
				String(r.headers.accept).includes('application/json'),
		),
		reqs.map((r) => [r.headers.authorization, r.headers.accept]),
	);
}

/** `created`: the reports the server stored for the run, when the caller knows them. */
export function checkCreation(
	check: Check,
	out: Outputs | undefined,
	reqs: RecordedRequest[],
	created?: Array<{ id: number; url: string; privacy: number }>,
): void {
	if (out) {
		const got = json(out['Create report']);
		const reports = got.map((r) => [r.url, r.project, r.privacy]);
		check(
			'creation: three simplified reports come out, in order',
			same(reports, CREATION.reports),
			reports,
		);
		check(
			'creation: each has an id, score and class',
			got.every(
				(r) =>
					typeof r.id === 'number' &&
					typeof r.score === 'number' &&
					['good', 'decent', 'bad'].includes(String(r.result_class)),
			),
			got[0],
		);
	}
	check(
		'creation: the server got exactly 3 requests, all POST /api/v1/reports',
		reqs.length === 3 && reqs.every((r) => r.method === 'POST' && r.path === '/api/v1/reports'),
		describeRequests(reqs),
	);
	check(
		// n8n sends the requests of all items at once: they arrive in any order.
		'creation: form bodies url=<each URL>&privacy=1, nothing else (one per URL)',
		same(
			reqs.map((r) => r.form).sort((a, b) => a.url.localeCompare(b.url)),
			[...CREATION.urls].sort().map((url) => ({ url, privacy: '1' })),
		),
		reqs.map((r) => r.rawBody),
	);
	check(
		'creation: bodies are application/x-www-form-urlencoded',
		reqs.every((r) =>
			String(r.headers['content-type']).startsWith('application/x-www-form-urlencoded'),
		),
		reqs.map((r) => r.headers['content-type']),
	);
	if (created)
		check(
			'creation: the server stored 3 new private reports',
			created.length === 3 && created.every((r) => r.privacy === 1),
			created.map((r) => [r.id, r.url, r.privacy]),
		);
}

/** `kept`: each user's reports that must be there after the run, none more (`mine`: the examples' user). */
export function checkHousekeeping(
	check: Check,
	api: PhpRankServer,
	out: Outputs | undefined,
	reqs: RecordedRequest[],
	kept: { mine: number[]; others: number[] },
): void {
	if (out) {
		const older = json(out['Older than N days']);
		check(
			'housekeeping: the filter keeps exactly the reports older than 90 days',
			same(
				older.map((r) => r.id),
				HOUSEKEEPING.deleted,
			),
			older.map((r) => [r.id, r.created_at]),
		);
		const deleted = HOUSEKEEPING.deleted.map((id) => ({ deleted: true, id }));
		check(
			'housekeeping: Delete outputs { deleted: true, id } per report',
			same(json(out['Delete report']), deleted),
			json(out['Delete report']),
		);
		check(
			'housekeeping: summary deleted_ids [1,2,3,4]',
			same(json(out['Deleted IDs']), [{ deleted_ids: HOUSEKEEPING.deleted }]),
			json(out['Deleted IDs']),
		);
	}
	const deleted = deletedOneToFour(reqs);
	check('housekeeping: exactly 4 DELETEs: /api/v1/reports/1..4', deleted.ok, deleted.detail);
	check(
		'housekeeping: every other request was a GET of the report list',
		reqs
			.filter((r) => r.method !== 'DELETE')
			.every((r) => r.method === 'GET' && r.path === '/api/v1/reports'),
		describeRequests(reqs),
	);
	const ids = (user: number) => api.listReports(user).map((r) => r.id);
	check(
		`housekeeping: the newer reports are all still there (${kept.mine.join(', ')})`,
		same(ids(USER_IDS.default), kept.mine),
		ids(USER_IDS.default),
	);
	check(
		"housekeeping: the other user's (old) reports are untouched",
		same(ids(USER_IDS.other), kept.others),
		ids(USER_IDS.other),
	);
}

/** The alert example's execution for the drop of report 7: the event's fields and the alert text. */
export function checkSecondAlert(
	check: Check,
	exec: StoredExecution | undefined,
	trigger: string,
): void {
	const event = json(exec?.outputs[trigger]);
	check(
		'it carries the drop decent -> bad of report 7, and not the rise of report 8',
		event.length === 1 &&
			event[0].id === 7 &&
			event[0].previous_result_class === 'decent' &&
			event[0].previous_score === 70 &&
			event[0].result_class === 'bad' &&
			event[0].score === 10,
		event,
	);
	const alert = json(exec?.outputs['Format alert'])[0] ?? {};
	check('the alert text for report 7', String(alert.text).startsWith(ALERT.text), alert.text);
}
