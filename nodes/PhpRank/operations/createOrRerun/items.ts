import type { IDataObject, IExecutePaginationFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { projectOfUrl, sameUrlKey } from '../../report';
import { isPageFailure, otherPagesOfSite, type Outcome } from '../../engine/analysis';
import { inputItemCount } from '../../transport/n8nInternals';
import { type Caller, recordLinks } from '../../transport/request';
import { fingerprintOf, recordDone, type Run } from '../../transport/run';
import { type OutputChoice, reportOutput } from '../../engine/reportItem';
import { type RunPage, siteSummary } from './summary';
import { siteSettings } from '../../site/options';
import { groupOf, type PageGroup } from '../../site/groups';
import type { PageGroupSettings } from '../../site/pageGroups';
import { siteHistoryOutput } from './siteItem';
import { keepSiteRun } from '../../history/keep';
import type { OpenSite } from '../../history/stores';
import { historySettings } from './historySettings';

/*
 * What Create or Re-Run outputs. One Item per Page: each page's report, with `action`, the change
 * columns, `other_reports` (and with Confirm Drops, whether the drop held). One Item per Site: the
 * run's items gathered (`Run.gather`), one item per site paired to its input items, with its
 * summary, and no request more; a page phpRank cannot analyse (422, 5xx, a timeout) is named in
 * `failed_pages`; only a site none of whose pages could be analysed fails, with the first error.
 */

/** One Item per Page: the report shaped as the other operations shape it, with what was done. */
export function pageItem(
	choice: OutputChoice,
	{ action, record, changes, others, confirmation }: Outcome,
	confirmPoints: number | undefined,
	groups: readonly PageGroup[],
): IDataObject {
	const confirmed =
		confirmPoints === undefined
			? {}
			: {
					confirmed: confirmation?.confirmed ?? null,
					first_score: confirmation?.first_score ?? null,
				};
	return {
		action,
		...reportOutput(choice, record, changes, { flat: true }),
		other_reports: others,
		...confirmed,
		...(groups.length ? { group: groupOf(record.url, groups) } : {}),
	};
}

interface GatheredPage {
	project: string;
	page: RunPage;
	error?: NodeApiError;
}

/** One Item per Site: the item's page joins the run's; the first item of each site answers for it. */
export async function siteItems(
	{ ctx, spec, run }: Caller<IExecutePaginationFunctions> & { run: Run },
	url: string,
	analysis: Promise<Outcome>,
	{ settings, history: home }: { settings: PageGroupSettings; history: OpenSite },
): Promise<INodeExecutionData[]> {
	const item = ctx.getItemIndex();
	const project = projectOfUrl(url);
	const gathered: GatheredPage = await analysis.then(
		({ action, record, changes, confirmation }) => {
			// Named if the run stops (On Error → Stop), as Create's reports are.
			if (action === 'created')
				recordDone(
					run,
					item,
					fingerprintOf(['createOrRerun', sameUrlKey(url)]),
					[{ json: record }],
					spec,
				);
			return {
				project,
				page: { url, action, record, changes, confirmed: confirmation?.confirmed },
			};
		},
		(error: unknown) => {
			if (!isPageFailure(error)) return Promise.reject(error);
			return { project, page: { url, failure: error.message }, error };
		},
	);
	const all = await run.gather('createOrRerun sites', item, gathered, inputItemCount(ctx));
	const mine = [...all]
		.filter(([, { project: site }]) => site === project)
		.sort(([a], [b]) => a - b);
	if (mine[0][0] !== item) return [];
	// Items of the same URL share its analysis: the site counts it once.
	const pages = [...new Map(mine.map(([, { page }]) => [sameUrlKey(page.url), page])).values()];
	if (pages.every((page) => page.failure !== undefined)) throw mine[0][1].error!;
	const { worstPages, minChange, wholeSite } = siteSettings(ctx);
	const others = wholeSite
		? await otherPagesOfSite(
				{ ctx, spec, run },
				project,
				new Set(pages.map((page) => sameUrlKey(page.url))),
			)
		: [];
	const summary = siteSummary(
		project,
		pages,
		{ worstPages, minChange, link: await recordLinks({ ctx, spec }) },
		settings,
		others,
	);
	const simplify = ctx.getNodeParameter('simplify', true) as boolean;
	const { length, branding, html } = historySettings(ctx);
	const history = await keepSiteRun(ctx, home, summary, length);
	return [
		{
			json: siteHistoryOutput(summary, history, { simplify, html }, branding),
			pairedItem: mine.map(([index]) => ({ item: index })),
		},
	];
}
