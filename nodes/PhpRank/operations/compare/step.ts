import type {
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { DEFAULT_PRIVACY } from '../../api';
import { sameUrlKey } from '../../report';
import { isToolRun } from '../../transport/n8nInternals';
import { callerOf, recordLinks } from '../../transport/request';
import type { ResourceSpec } from '../../transport/resource';
import { doneBefore, fingerprintOf, itemFailed, recordDone, runOf } from '../../transport/run';
import { isPageFailure, type ItemCaller, sharedAnalysis } from '../../engine/analysis';
import { operationRouting, paired } from '../../engine/routes';
import { checkCompareInput, type CompareInput, compareInput } from './checks';
import { type Analysed, compare, type Comparison } from '../../engine/comparison';
import { keepComparison, overTime, readComparisonHistory } from './history';
import { type SearchConsoleRows, trafficByPage, trafficKey, trafficOf } from '../../site/traffic';
import { simplified, summaryHtml, summaryText, toolText } from './text';

/*
 * Report → Compare With Competitors: Your URL and each competitor's analysed as Create or Re-Run
 * analyses a URL (its site's reports read once per run, the report re-run or created, never a
 * second one; reused as it is when analysed within Reuse Recent Analysis's hours), each URL once
 * per run whichever items name it. Cost per comparison of N URLs on N sites: N list reads
 * (ceil(reports of the site / 100) each) and at most N analyses, none for a recent report.
 */

/** Each URL's report; a competitor phpRank could not analyse (422, 5xx, a timeout) set apart. */
async function analyseAll(
	caller: ItemCaller,
	input: CompareInput,
): Promise<{
	you: Analysed;
	competitors: Analysed[];
	notComparable: Array<{ url: string; reason: string }>;
}> {
	const analyse = (url: string) =>
		sharedAnalysis(
			caller,
			url,
			{ url, privacy: DEFAULT_PRIVACY },
			{ confirmPoints: undefined, reuseHours: input.reuseHours },
		).then(({ record, action }): Analysed => ({ url, record, action }));
	const [mine, ...theirs] = await Promise.allSettled([
		analyse(input.yours),
		...input.competitors.map(analyse),
	]);
	// Your page is what the comparison is about: without it the item fails.
	if (mine.status === 'rejected') throw mine.reason;
	const competitors: Analysed[] = [];
	const notComparable: Array<{ url: string; reason: string }> = [];
	theirs.forEach((outcome, index) => {
		if (outcome.status === 'fulfilled') competitors.push(outcome.value);
		else if (isPageFailure(outcome.reason))
			notComparable.push({ url: input.competitors[index], reason: outcome.reason.message });
		else throw outcome.reason;
	});
	return { you: mine.value, competitors, notComparable };
}

/** With Search Console Data: your page's clicks and impressions on the item and each check they lead on. */
function withTraffic(c: Comparison, rows: SearchConsoleRows | undefined): Comparison {
	if (!rows) return c;
	const { clicks, impressions } = trafficOf(trafficByPage(rows))([c.you.url]);
	const mine = { clicks_affected: clicks, impressions_affected: impressions };
	return {
		...c,
		...mine,
		traffic_period: rows.period ?? null,
		traffic_data: trafficByPage(rows).has(trafficKey(c.you.url)),
		they_lead_on: c.they_lead_on.map((lead) => ({ ...lead, ...mine })),
	};
}

/** The item as Simplify, E-Mail HTML and an AI tool want it. */
function comparisonItem(
	c: Comparison,
	input: CompareInput,
	{ simplify, tool }: { simplify: boolean; tool: boolean },
): IDataObject {
	if (simplify && tool) return { comparison: toolText(c) };
	const html = input.html ? { summary_html: summaryHtml(c, input.branding) } : {};
	const fields = simplify ? simplified(c) : (c as unknown as IDataObject);
	return { ...fields, summary_text: summaryText(c), ...html };
}

async function compareWithCompetitors(
	this: IExecutePaginationFunctions,
): Promise<INodeExecutionData[]> {
	const run = runOf(this);
	try {
		const input = compareInput(this);
		const item = this.getItemIndex();
		const fingerprint = fingerprintOf([
			'compare',
			...[input.yours, ...input.competitors].map(sameUrlKey),
		]);
		// Retry On Fail: a comparison an earlier try made is returned, its analyses not made again.
		const before = doneBefore(run, item, fingerprint);
		if (before) return paired(this, before);
		// History Store → Data Table: the URLs' rows read before any phpRank request.
		const history = await readComparisonHistory(this, run, [input.yours, ...input.competitors]);
		const caller = callerOf(this, run);
		const { you, competitors, notComparable } = await analyseAll(caller, input);
		const link = await recordLinks(caller);
		const now = compare(you, competitors, notComparable, { tieWithin: input.tieWithin, link });
		const comparison = withTraffic(history ? overTime(now, history) : now, input.traffic);
		const kept = history ? await keepComparison(this, history, [you, ...competitors]) : {};
		const shape = {
			simplify: this.getNodeParameter('simplify', true) as boolean,
			tool: isToolRun(this),
		};
		const items = [{ json: { ...comparisonItem(comparison, input, shape), ...kept } }];
		recordDone(run, item, fingerprint, items);
		return paired(this, items);
	} catch (error) {
		return await itemFailed(this, run, error);
	}
}

/** The routing of Compare With Competitors: the input checked, then the step above. */
export function compareRoute(spec: ResourceSpec): INodePropertyRouting {
	return operationRouting(spec, {
		request: { method: 'POST', url: spec.path },
		send: { paginate: true, preSend: [checkCompareInput] },
		operations: { pagination: compareWithCompetitors },
	});
}
