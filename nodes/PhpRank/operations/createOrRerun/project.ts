import type { IDataObject, IExecutePaginationFunctions, INodeExecutionData } from 'n8n-workflow';

import { describeValue } from '../../bounds';
import { checkedUrl, fail, projectName } from '../../input';
import { projectOfUrl, sameUrlKey } from '../../report';
import { recordLinks } from '../../transport/request';
import { recordDone, fingerprintOf } from '../../transport/run';
import {
	type AnalysisOptions,
	type ItemCaller,
	type Outcome,
	reportsOfSite,
	sharedAnalysis,
} from '../../engine/analysis';
import { outputChoice } from '../../engine/reportItem';
import { paired } from '../../engine/routes';
import { openSiteHistory } from '../../history/keep';
import type { PageGroupSettings } from '../../site/pageGroups';
import type { SearchConsoleRows } from '../../site/traffic';
import { checkPublicUrl } from './checks';
import { pageItem, siteItems } from './items';

/*
 * Create or Re-Run, Pages From → A Project's Reports: the project's pages are its reports' URLs, read
 * with the one list read the analyses share (one request per 100 reports), each URL's newest report
 * analysed; with Changed URLs only those are analysed, and the site item still counts every page.
 */

const LABEL = 'Changed URLs';

/** Changed URLs as given: a list (an expression's array) or text, one URL per line or comma; none: every page. */
function changedUrls(ctx: IExecutePaginationFunctions, project: string): string[] | undefined {
	const given = ctx.getNodeParameter('changedUrls', '') as unknown;
	const list = Array.isArray(given) ? given : String(given ?? '').split(/[\n,]/);
	const urls = new Map<string, string>();
	for (const value of list) {
		if (value !== null && typeof value === 'object')
			fail(
				ctx,
				`${LABEL} must be URLs, but one is ${describeValue(value)}`,
				`Make the expression of ${LABEL} return a list of page addresses, e.g. {{ $json.body.urls }} holding ["https://${project}/pricing"].`,
			);
		if (String(value ?? '').trim() === '') continue;
		const url = checkedUrl(ctx, value, `${LABEL}: the URL`);
		if (projectOfUrl(url) !== projectOfUrl(project))
			fail(
				ctx,
				`${LABEL}: ${describeValue(url)} is not a page of project "${project}"`,
				`Give only pages of ${project} (the Project field), e.g. https://${project}/pricing.`,
			);
		checkPublicUrl(ctx, url);
		urls.set(sameUrlKey(url), url);
	}
	return urls.size ? [...urls.values()] : undefined;
}

/** The project and its Changed URLs, checked before any request. */
function projectInput(ctx: IExecutePaginationFunctions): { project: string; changed?: string[] } {
	const project = projectName(ctx);
	return { project, changed: changedUrls(ctx, project) };
}

/** The pages to analyse: the Changed URLs, or each page of the project as its newest report names it. */
async function pagesToAnalyse(
	caller: ItemCaller,
	{ project, changed }: { project: string; changed?: string[] },
): Promise<string[]> {
	const byUrl = await reportsOfSite(caller, project);
	if (changed) return changed;
	if (byUrl.size === 0)
		fail(
			caller.ctx,
			`Project: there are no reports of project "${project}"`,
			'Choose a project from the list (Project → Get Many lists them), or set Pages From to URL to analyse pages it has no reports of yet.',
		);
	const field = caller.spec.createdFrom ?? 'url';
	return [...byUrl.values()].map((reports) => String(reports[0][field]));
}

/** One Item per Page: each analysed page's item; a page phpRank cannot analyse fails the item. */
async function pageItems(
	caller: ItemCaller,
	urls: string[],
	analyse: (url: string) => Promise<Outcome>,
	{
		settings,
		confirmPoints,
		traffic,
	}: {
		settings: PageGroupSettings;
		confirmPoints: number | undefined;
		traffic?: SearchConsoleRows;
	},
): Promise<INodeExecutionData[]> {
	const { ctx, run, spec } = caller;
	const settled = await Promise.allSettled(urls.map(analyse));
	const outcomes = settled.flatMap((done) => (done.status === 'fulfilled' ? [done.value] : []));
	const created = outcomes.filter(({ action }) => action === 'created');
	if (created.length)
		recordDone(
			run,
			ctx.getItemIndex(),
			fingerprintOf(['createOrRerun', ...created.map(({ record }) => record[spec.key])]),
			created.map(({ record }) => ({ json: record })),
			spec,
		);
	const failed = settled.find((done) => done.status === 'rejected');
	if (failed) throw failed.reason;
	const choice = outputChoice(ctx, await recordLinks(caller));
	return paired(
		ctx,
		outcomes.map((outcome) => ({
			json: pageItem(choice, outcome, confirmPoints, settings.groups, traffic),
		})),
	);
}

/** The step of an item whose pages come from a project's reports: per page, or the project's site item. */
export async function projectStep(
	caller: ItemCaller,
	body: IDataObject,
	{
		bySite,
		settings,
		analysis,
		traffic,
	}: {
		bySite: boolean;
		settings: PageGroupSettings;
		analysis: Omit<AnalysisOptions, 'project'>;
		traffic?: SearchConsoleRows;
	},
): Promise<INodeExecutionData[]> {
	const { ctx, run } = caller;
	const input = projectInput(ctx);
	const { project } = input;
	const analyse = (url: string) =>
		sharedAnalysis(caller, url, { ...body, url }, { ...analysis, project });
	if (!bySite) {
		const urls = await pagesToAnalyse(caller, input);
		return await pageItems(caller, urls, analyse, { settings, ...analysis, traffic });
	}
	// History Store → Data Table: the site's rows read before any phpRank request.
	const history = await openSiteHistory(ctx, run, project, settings.groups.length > 0);
	const urls = await pagesToAnalyse(caller, input);
	const analyses = urls.map((url) => ({ url, analysis: analyse(url) }));
	return await siteItems(caller, project, analyses, {
		settings,
		history,
		wholeSite: true,
		traffic,
	});
}
