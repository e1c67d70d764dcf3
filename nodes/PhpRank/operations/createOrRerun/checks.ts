import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BOUNDS, describeValue } from '../../bounds';
import { PUBLIC_URL_MAX_LENGTH, publicUrlProblem } from '../../publicUrl';
import { boundedOption, fail } from '../input';
import { siteSettings } from '../site/options';

/** Confirm Drops: the points a score must fall by to be confirmed, or undefined when off. */
export function confirmDropPoints(ctx: IExecuteSingleFunctions): number | undefined {
	if (!(ctx.getNodeParameter('confirmDrops', false) as boolean)) return undefined;
	const { dropPoints } = BOUNDS;
	return boundedOption(
		ctx,
		'dropPoints',
		ctx.getNodeParameter('dropPoints', dropPoints.default),
		`Set Drop Points (under Confirm Drops) to how many points a score must fall by to be analysed again, from ${dropPoints.low} to ${dropPoints.high} (e.g. ${dropPoints.default}).`,
	);
}

/** Reuse Recent Analysis: the hours an analysis may be reused, 0 when off. */
export function reuseHours(ctx: IExecuteSingleFunctions): number {
	const bound = BOUNDS.reuseRecentAnalysis;
	return boundedOption(
		ctx,
		'reuseRecentAnalysis',
		ctx.getNodeParameter('reuseRecentAnalysis', bound.default),
		`Set Reuse Recent Analysis to how many hours an analysis may be reused, from ${bound.low} (always analyse) to ${bound.high} (a year), e.g. 24.`,
	);
}

/** Public URLs Only: a URL that is not a public web page is refused before it reaches phpRank. */
function checkPublicUrl(ctx: IExecuteSingleFunctions, url: unknown): void {
	if (!(ctx.getNodeParameter('publicUrlsOnly', false) as boolean)) return;
	const problem = publicUrlProblem(String(url));
	if (problem === undefined) return;
	// A URL too long to read is not repeated.
	const shown = String(url).length > PUBLIC_URL_MAX_LENGTH ? '' : ` ${describeValue(url)}`;
	fail(
		ctx,
		`The URL${shown} ${problem}`,
		'Public URLs Only is on: enter the address of a public web page, e.g. https://example.com/pricing.',
	);
}

/** Public URLs Only, Reuse Recent Analysis, Confirm Drops and, with One Item per Site, the site options, checked before anything is sent. */
export async function checkRerunOptions(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	checkPublicUrl(this, (requestOptions.body as IDataObject).url);
	reuseHours(this);
	confirmDropPoints(this);
	if (this.getNodeParameter('output', 'pages') === 'sites') siteSettings(this);
	return requestOptions;
}
