import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BOUNDS, describeValue } from '../../bounds';
import { PUBLIC_URL_MAX_LENGTH, publicUrlProblem } from '../../publicUrl';
import { boundedOption, fail } from '../../input';
import { siteSettings } from '../../site/options';
import { pageGroupSettings } from '../../site/pageGroups';
import { itemTraffic } from '../../site/traffic';

/** The Options collection (Confirm Drops, Drop Points, Public URLs Only, Reuse Recent Analysis) as set. */
function rerunOptions(ctx: IExecuteSingleFunctions): IDataObject {
	return ctx.getNodeParameter('options', {}) as IDataObject;
}

/** Options → Confirm Drops: the points a score must fall by to be confirmed, or undefined when off. */
export function confirmDropPoints(ctx: IExecuteSingleFunctions): number | undefined {
	const options = rerunOptions(ctx);
	if (!options.confirmDrops) return undefined;
	const { dropPoints } = BOUNDS;
	return boundedOption(
		ctx,
		'dropPoints',
		options.dropPoints,
		`Under Options, set Drop Points (used with Confirm Drops on) to how many points a score must fall by to be analysed again, from ${dropPoints.low} to ${dropPoints.high} (e.g. ${dropPoints.default}).`,
		'Options',
	);
}

/** Options → Reuse Recent Analysis: the hours an analysis may be reused, 0 when off. */
export function reuseHours(ctx: IExecuteSingleFunctions): number {
	const bound = BOUNDS.reuseRecentAnalysis;
	return boundedOption(
		ctx,
		'reuseRecentAnalysis',
		rerunOptions(ctx).reuseRecentAnalysis,
		`Under Options, set Reuse Recent Analysis to how many hours an analysis may be reused, from ${bound.low} (always analyse) to ${bound.high} (a year), e.g. 24.`,
		'Options',
	);
}

/** Pages From: whether the pages are a project's reports ('project') rather than the item's URL ('url', the default). */
export function pagesFromProject(ctx: IExecuteSingleFunctions): boolean {
	const value = ctx.getNodeParameter('pagesFrom', 'url');
	if (value === 'url' || value === 'project') return value === 'project';
	return fail(
		ctx,
		`Pages From must be "url" or "project", not ${describeValue(value)}`,
		'Set Pages From to URL (url) or A Project’s Reports (project).',
	);
}

/** Options → Public URLs Only: a URL that is not a public web page is refused before it reaches phpRank. */
export function checkPublicUrl(ctx: IExecuteSingleFunctions, url: unknown): void {
	if (!rerunOptions(ctx).publicUrlsOnly) return;
	const problem = publicUrlProblem(String(url));
	if (problem === undefined) return;
	// A URL too long to read is not repeated.
	const shown = String(url).length > PUBLIC_URL_MAX_LENGTH ? '' : ` ${describeValue(url)}`;
	fail(
		ctx,
		`The URL${shown} ${problem}`,
		'Options → Public URLs Only is on: enter the address of a public web page, e.g. https://example.com/pricing.',
	);
}

/** Search Console Data, or the input item's (none: undefined); data not in Search Console's shape refused, naming the field. */
export const searchConsoleData = itemTraffic;

/** Public URLs Only, Reuse Recent Analysis, Confirm Drops, Page Groups, Search Console Data and, with One Item per Site, the site options, checked before anything is sent. */
export async function checkRerunOptions(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	// Pages From → A Project's Reports: its Changed URLs are checked with the project (project.ts).
	if (!pagesFromProject(this)) checkPublicUrl(this, (requestOptions.body as IDataObject).url);
	reuseHours(this);
	confirmDropPoints(this);
	pageGroupSettings(this);
	searchConsoleData(this);
	if (this.getNodeParameter('output', 'pages') !== 'pages') siteSettings(this);
	return requestOptions;
}
