import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { PRIVACY_CHOICES } from '../api';
import { type CheckChange, classify, failedChecks, type ReportChanges } from '../report';
import { isToolRun } from '../transport/n8nInternals';
import { linksForOutputSteps } from '../transport/request';

// How the node outputs a report phpRank answered: Simplify on, off, or for an AI tool; the
// operations that output reports (Get, Get Many, Create, Update, Create or Re-Run, the trigger) share it.

/** `title (high), load_time (medium)`. */
export function checkList(checks: CheckChange[]): string {
	return checks.map(({ check, importance }) => `${check} (${importance})`).join(', ');
}

/** How many failed checks `top_failed_checks` names. */
export const TOP_FAILED_CHECKS = 3;

/**
 * `top_failed_checks` from `failedChecks`' list: the most important (high, medium, low; ties in phpRank's own
 * order), '' when none failed, as `newly_failed` says none: an empty cell in n8n's Table and in a
 * sheet, where null shows as the word "null".
 */
export function topFailedChecks(failed: CheckChange[]): string {
	return checkList(failed.slice(0, TOP_FAILED_CHECKS));
}

/** The changes in words an agent can read aloud: `score 72 → 61; newly failed: title (high)`. */
export function changesText(changes: ReportChanges, score: number | null): string {
	const parts = [`score ${changes.previous.result ?? 'unknown'} → ${score ?? 'unknown'}`];
	if (changes.failed.length) parts.push(`newly failed: ${checkList(changes.failed)}`);
	if (changes.fixed.length) parts.push(`fixed: ${checkList(changes.fixed)}`);
	if (!changes.failed.length && !changes.fixed.length) parts.push('no check changed');
	return parts.join('; ');
}

function privacyLabel(record: IDataObject): IDataObject[string] {
	return (
		PRIVACY_CHOICES.find(({ value }) => value === Number(record.privacy))?.key ??
		record.privacy ??
		null
	);
}

// Failed checks counted by importance; their names stay out of the simplified report (a list of
// names wraps a Table row to many lines) and are in `results`, `changes` and the AI tool's answer.
function failedCounts(checks: CheckChange[]): IDataObject {
	const count = (importance: string) =>
		checks.filter((check) => check.importance === importance).length;
	return { failed_high: count('high'), failed_medium: count('medium'), failed_low: count('low') };
}

/** What changed, flat, for tables and IF nodes; `changes` beside them keeps the structure. */
function changeColumns(changes: unknown): IDataObject {
	if (changes === undefined) return {};
	if (changes === null)
		return { previous_score: null, score_change: null, newly_failed: '', newly_fixed: '' };
	const { previous, scoreDelta, failed, fixed } = changes as ReportChanges;
	return {
		previous_score: previous.result,
		score_change: scoreDelta,
		newly_failed: checkList(failed),
		newly_fixed: checkList(fixed),
	};
}

/** How a report is shaped: Simplify, and its page on the instance (`recordLink`) for `link`. */
export interface ReportShape {
	simplify: boolean;
	link: (id: unknown) => string;
}

/** The API record with score and class, or the compact form with every filtered field on top. */
export function shapeReport(
	record: IDataObject,
	{ simplify, link }: ReportShape,
	flat = false,
): IDataObject {
	const classified = classify(record.result);
	const failed = failedChecks(record.results);
	const added = { top_failed_checks: topFailedChecks(failed), link: link(record.id) };
	if (!simplify) return { ...record, ...classified, ...added };
	return {
		id: record.id,
		url: record.url,
		project: record.project,
		...classified,
		...changeColumns(record.changes),
		...failedCounts(failed),
		top_failed_checks: added.top_failed_checks,
		privacy: privacyLabel(record),
		generated_at: record.generated_at ?? null,
		created_at: record.created_at ?? null,
		updated_at: record.updated_at ?? null,
		link: added.link,
		// `flat`: only the change columns (Create or Re-Run's many rows stay one line high in the Table view).
		...(record.changes === undefined || flat ? {} : { changes: record.changes }),
	};
}

/** `title: too_long (max 60)`: a failed check and what phpRank found wrong, in a few words. */
function describeCheck(name: string, check: IDataObject): string {
	const problems = Object.entries((check.errors ?? {}) as IDataObject).map(([problem, detail]) => {
		const limits =
			detail && typeof detail === 'object' && !Array.isArray(detail) ? Object.entries(detail) : [];
		const scalar =
			limits.length > 0 &&
			limits.every(([, value]) => typeof value === 'number' || typeof value === 'string');
		return scalar
			? `${problem} (${limits.map(([key, value]) => `${key} ${String(value)}`).join(', ')})`
			: problem;
	});
	// phpRank names some problems after their check (`title: {title: …}`): the name alone says it.
	const told = problems.filter((problem) => problem !== name);
	return told.length ? `${name}: ${told.join(', ')}` : name;
}

function failedChecksByImportance(results: unknown): Record<string, string[]> {
	const groups: Record<string, string[]> = {};
	for (const { check, importance, detail } of failedChecks(results))
		(groups[importance] ??= []).push(describeCheck(check, detail));
	return groups;
}

// A report as an AI model gets it (Simplify on): in a list, what it takes to pick one, with its top
// failed checks (what is wrong, without a Get per report); alone, what failed and why in words,
// and its link to hand on. Each a fraction of the full record, a list under half the Simplify
// list (test/tool.test.ts prints the sizes): so a list leaves the links to Get.
export function toolReport(
	record: IDataObject,
	inList: boolean,
	link: ReportShape['link'],
): IDataObject {
	const summary = { id: record.id, url: record.url, ...classify(record.result) };
	if (inList) {
		return {
			...summary,
			top_failed_checks: topFailedChecks(failedChecks(record.results)),
			generated_at: record.generated_at ?? null,
		};
	}
	return {
		...summary,
		project: record.project,
		failed_checks: failedChecksByImportance(record.results),
		privacy: privacyLabel(record),
		generated_at: record.generated_at ?? null,
		link: link(record.id),
	};
}

export interface OutputChoice extends ReportShape {
	tool: boolean;
}

/** Read once per node run's step, not per report; `link` from `recordLinks`. */
export function outputChoice(
	ctx: IExecuteSingleFunctions,
	link: ReportShape['link'],
): OutputChoice {
	return {
		simplify: ctx.getNodeParameter('simplify', true) as boolean,
		tool: isToolRun(ctx),
		link,
	};
}

// Every operation that returns a report goes through here: for an AI tool (Simplify on, in a tool
// run) or as Simplify says. `changes`: null for a new report; `flat`: see `shapeReport`.
export function reportOutput(
	choice: OutputChoice,
	record: IDataObject,
	changes: ReportChanges | null | undefined,
	{ inList = false, flat = false }: { inList?: boolean; flat?: boolean } = {},
): IDataObject {
	if (choice.simplify && choice.tool) {
		const report = toolReport(record, inList, choice.link);
		if (changes === undefined) return report;
		return {
			...report,
			changes: changes ? changesText(changes, report.score as number | null) : null,
		};
	}
	return shapeReport(
		changes === undefined
			? record
			: { ...record, changes: changes as unknown as IDataObject | null },
		choice,
		flat,
	);
}

export async function shapeReports(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const choice = outputChoice(this, linksForOutputSteps(this));
	const inList = choice.tool && this.getNodeParameter('operation') === 'getAll';
	return items.map(({ json }) => ({
		json: reportOutput(choice, json, json.changes as ReportChanges | undefined, { inList }),
	}));
}
