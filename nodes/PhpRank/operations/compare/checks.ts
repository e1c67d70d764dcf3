import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { BOUNDS, describeValue } from '../../bounds';
import {
	PUBLIC_URL_MAX_LENGTH,
	publicUrlProblem,
	webAddressProblem,
	withScheme,
} from '../../publicUrl';
import { sameUrlKey } from '../../report';
import { type Branding, brandingOf } from '../../engine/branding';
import { itemTraffic, type SearchConsoleRows } from '../../site/traffic';
import { checkHistoryHome } from '../../history/homes';
import { boundedOption, fail, textParameter } from '../../input';
import { MAX_COMPETITORS } from '../../engine/comparison';

/*
 * Compare With Competitors' input, checked before any request: Your URL, Competitor URLs (1 to
 * MAX_COMPETITORS, each http(s), none of them yours as phpRank compares URLs), Public URLs Only,
 * the numbers and Report Branding. Each refusal names the field.
 */

export interface CompareInput {
	/** Search Console Data (or the input item's): your page's clicks beside what to fix. */
	traffic?: SearchConsoleRows;
	yours: string;
	/** Distinct as phpRank compares URLs, in the order given. */
	competitors: string[];
	reuseHours: number;
	tieWithin: number;
	html: boolean;
	branding: Branding;
}

const options = (ctx: IExecuteSingleFunctions) =>
	ctx.getNodeParameter('options', {}) as IDataObject;

// A new line or semicolon; a comma before a space, a scheme or a host name (`, b.com`, `,https://`,
// `,b.com/x`): a comma inside a URL's path or query stays.
const SEPARATOR =
	/\s*[\n;]\s*|,\s+|,(?=[a-z][a-z0-9+.-]*:\/\/|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:[/?#:,]|$))/i;

/**
 * The competitors as entered: each entry of the list, where an expression may give one URL, several
 * separated by commas, semicolons or new lines, or a list.
 */
export function competitorUrls(value: unknown): string[] {
	const entries =
		(value as { competitor?: Array<{ url?: unknown }> } | undefined)?.competitor ?? [];
	const texts = entries.flatMap(({ url }) => (Array.isArray(url) ? url : [url]));
	return texts
		.flatMap((text) =>
			typeof text === 'string' || typeof text === 'number' ? String(text).split(SEPARATOR) : [text],
		)
		.map((text) => (typeof text === 'string' ? text.trim() : text))
		.filter((text) => text !== '' && text !== undefined && text !== null) as string[];
}

/**
 * A page's address as Create takes it: without a scheme https:// is added; then http(s), and public
 * when Public URLs Only is on. `field` names it in the error. Returns the address to analyse.
 */
function checkUrl(
	ctx: IExecuteSingleFunctions,
	given: unknown,
	field: string,
	example: string,
): string {
	const url = typeof given === 'string' ? withScheme(given) : '';
	const problem =
		typeof given !== 'string'
			? 'is not a web address'
			: given === ''
				? 'is empty'
				: webAddressProblem(url);
	if (problem !== undefined)
		fail(
			ctx,
			`${field}${given === '' ? '' : ` ${describeValue(given)}`} ${problem}`,
			`Enter the page, e.g. ${example} (https:// is added to an address without a scheme) or http://….`,
		);
	if (!options(ctx).publicUrlsOnly) return url;
	const publicProblem = publicUrlProblem(url);
	if (publicProblem === undefined) return url;
	const shown = url.length > PUBLIC_URL_MAX_LENGTH ? '' : ` ${describeValue(url)}`;
	fail(
		ctx,
		`${field}${shown} ${publicProblem}`,
		`Options → Public URLs Only is on: enter the address of a public web page, e.g. https://${example}.`,
	);
}

function readCompetitors(ctx: IExecuteSingleFunctions, yours: string): string[] {
	const given = competitorUrls(ctx.getNodeParameter('competitors', {}));
	if (given.length === 0)
		fail(
			ctx,
			'Competitor URLs has no URL',
			`Add at least one competitor’s page under Competitor URLs (1 to ${MAX_COMPETITORS}), e.g. competitor.example/pricing. An expression may give several, separated by commas.`,
		);
	const byKey = new Map<string, string>();
	given.forEach((entry, index) => {
		const field = `Competitor URL ${index + 1}`;
		const url = checkUrl(ctx, entry, field, 'competitor.example/pricing');
		if (sameUrlKey(url) === sameUrlKey(yours))
			fail(
				ctx,
				`${field} (${url}) is Your URL`,
				'phpRank counts URLs that differ only in the scheme, a leading www. or a trailing slash as the same page: remove it from Competitor URLs.',
			);
		if (!byKey.has(sameUrlKey(url))) byKey.set(sameUrlKey(url), url);
	});
	if (byKey.size > MAX_COMPETITORS)
		fail(
			ctx,
			`Competitor URLs has ${byKey.size} URLs, more than the ${MAX_COMPETITORS} a comparison takes`,
			`Keep the ${MAX_COMPETITORS} competitors that matter most, or split them over two Compare With Competitors nodes.`,
		);
	return [...byKey.values()];
}

/** The comparison's input as set; bad input stops the item with an error naming the field. */
export function compareInput(ctx: IExecuteSingleFunctions): CompareInput {
	const given = textParameter(ctx, 'yourUrl', 'Your URL', ctx.getNodeParameter('yourUrl', ''));
	const yours = checkUrl(ctx, given, 'Your URL', 'example.com/pricing');
	const competitors = readCompetitors(ctx, yours);
	const { reuseHours, tieWithin } = BOUNDS;
	const branding = brandingOf(ctx);
	return {
		yours,
		competitors,
		reuseHours: boundedOption(
			ctx,
			'reuseHours',
			ctx.getNodeParameter('reuseHours', reuseHours.default),
			`Set Reuse Recent Analysis to how many hours a report may be reused without a new analysis, from ${reuseHours.low} (always analyse) to ${reuseHours.high} (a year), e.g. ${reuseHours.default}.`,
		),
		tieWithin: boundedOption(
			ctx,
			'tieWithin',
			ctx.getNodeParameter('tieWithin', tieWithin.default),
			`Set Tie Within to how many points apart two scores still count as a tie, from ${tieWithin.low} to ${tieWithin.high}, e.g. ${tieWithin.default}.`,
		),
		html: options(ctx).emailHtml === true,
		branding,
		traffic: itemTraffic(ctx),
	};
}

/** The preSend check: everything above, before anything is sent. */
export async function checkCompareInput(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	compareInput(this);
	checkHistoryHome(this, 'compare');
	return requestOptions;
}
