import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	NodeApiError,
	PreSendAction,
} from 'n8n-workflow';

import {
	DEFAULT_PRIVACY,
	MAX_PASSWORD_LENGTH,
	PAGE_SIZES,
	PAGE_SIZES_TEXT,
	PRIVACY,
	PRIVACY_CHOICES,
	REPORT_LINK,
} from './api';
import { BOUNDS, type BoundName, describeValue, readBounded } from './bounds';
import { webAddressProblem, withScheme } from './publicUrl';
import { connectionOf } from './transport/connection';
import { inputError } from './transport/errors';
import { inputItemCount } from './transport/n8nInternals';
import { recordPath } from './transport/request';
import type { ResourceSpec } from './transport/resource';
import { runOf, stopOnInputError } from './transport/run';

// The input checks and request shaping several operations share, before anything is sent: bad
// input stops with an error naming the field. An operation's own checks live in its folder.

/** Bad input of an item, as an error that names the item (when there are several) and what to fix. */
export function inputProblem(
	ctx: IExecuteSingleFunctions,
	message: string,
	description: string,
): NodeApiError {
	return inputError(
		runOf(ctx).nodeForErrors(ctx),
		`${message}${itemSuffix(ctx)}`,
		description,
		ctx.getItemIndex(),
	);
}

export function fail(ctx: IExecuteSingleFunctions, message: string, description: string): never {
	const error = inputProblem(ctx, message, description);
	stopOnInputError(ctx, error);
	throw error;
}

/**
 * A number option of the action node within its bounds, or the error that names the field and what
 * to enter; `under`: the collection it is in, named in the error (`Options → Drop Points …`).
 */
export function boundedOption(
	ctx: IExecuteSingleFunctions,
	name: BoundName,
	value: unknown,
	enter: string,
	under?: string,
): number {
	return readBounded(name, value, (problem) => fail(ctx, problem, enter), under);
}

/** ` [item 2]` with several input items, as n8n's error panel writes it (it then adds none). */
function itemSuffix(ctx: IExecuteSingleFunctions): string {
	return inputItemCount(ctx) > 1 ? ` [item ${ctx.getItemIndex()}]` : '';
}

/** A scalar text parameter; expressions can hand over objects and arrays. */
export function textParameter(
	ctx: IExecuteSingleFunctions,
	name: string,
	label: string,
	value: unknown,
): string {
	if (value !== null && typeof value === 'object') {
		fail(
			ctx,
			`${label} must be text, but the expression gave ${describeValue(value)}`,
			`Change the expression of "${label}" so that it returns a single value, e.g. {{ $json.${name}[0] }} or {{ $json.${name}.name }}.`,
		);
	}
	return value === undefined || value === null ? '' : String(value).trim();
}

/** A report ID: a positive whole number, given as a number or as digits. */
export function parseReportId(ctx: IExecuteSingleFunctions, value: unknown): number {
	const text = textParameter(ctx, 'id', 'Report', value);
	if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
		fail(
			ctx,
			`The report ID must be a positive whole number, not ${describeValue(text)}`,
			'Choose the report from the list, or enter its numeric ID (e.g. 42), as shown in the report’s address in phpRank.',
		);
	}
	return Number(text);
}

export function reportPath(spec: ResourceSpec): PreSendAction {
	return async function reportPath(
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		// The mode as stored (not evaluated): n8n evaluates an expression of the value on every read.
		const mode = (this.getNode().parameters.reportId as { mode?: unknown } | undefined)?.mode;
		if (mode === 'url')
			await checkReportLink(
				this,
				(this.getNodeParameter('reportId', undefined) as { value?: unknown }).value,
			);
		const id = parseReportId(
			this,
			this.getNodeParameter('reportId', undefined, { extractValue: true }),
		);
		return { ...requestOptions, url: recordPath(spec, id) };
	};
}

/** A link pasted By URL must be on the credential's instance: elsewhere it is another report. */
async function checkReportLink(ctx: IExecuteSingleFunctions, value: unknown): Promise<void> {
	const link = textParameter(ctx, 'url', 'Report', value);
	const match = new RegExp(REPORT_LINK).exec(link);
	if (!match) {
		fail(
			ctx,
			`Report (By URL): ${describeValue(link)} is not the link of a report page`,
			'Paste the address of the report’s page in phpRank, e.g. https://seo.example.com/reports/42, or choose the report From List.',
		);
	}
	let host = '';
	try {
		host = new URL(withScheme(link)).host;
	} catch {
		host = '';
	}
	const { host: instance } = await connectionOf(ctx);
	const bare = (name: string) => name.toLowerCase().replace(/^www\./, '');
	if (bare(host) !== bare(instance)) {
		fail(
			ctx,
			`Report (By URL): the link is to ${host || 'another site'}, but the phpRank credential is for ${instance}`,
			`Paste the link of a report on ${instance}, or choose the credential of the instance the link is from.`,
		);
	}
}

/** The name travels as one encoded path segment: `a/b`, `?`, `#` or `%` reach no other route. */
export function projectPath(spec: ResourceSpec): PreSendAction {
	return async function projectPath(
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return { ...requestOptions, url: recordPath(spec, projectName(this)) };
	};
}

export function projectName(ctx: IExecuteSingleFunctions): string {
	const name = textParameter(
		ctx,
		'project',
		'Project',
		ctx.getNodeParameter('project', undefined, { extractValue: true }),
	);
	if (!name) {
		fail(
			ctx,
			'The project name is empty',
			'Choose a project from the list, or enter its name (the site’s host, e.g. example.com).',
		);
	}
	// URL parsers resolve a `.` or `..` segment (even as %2e%2e) against the path: the request
	// would reach another route. Such a name cannot be a host, so it is refused.
	if (name === '.' || name === '..') {
		fail(
			ctx,
			`"${name}" cannot be a project name`,
			'A project is named after its host, e.g. example.com.',
		);
	}
	return name;
}

/** 0/1/2 or a privacy's name, blank undefined; anything else is refused (a guess could publish). */
export function parsePrivacy(ctx: IExecuteSingleFunctions, value: unknown): number | undefined {
	const text = textParameter(ctx, 'privacy', 'Privacy', value).toLowerCase();
	if (text === '') return undefined;
	const choice = PRIVACY_CHOICES.find(
		({ value: number, key }) => text === String(number) || text === key,
	);
	if (!choice) {
		fail(
			ctx,
			`Privacy must be ${PRIVACY_CHOICES.map(({ value: number, key }) => `${number} (${key})`).join(', ')}, not ${describeValue(value)}`,
			'Pick one of the Privacy options, or make the expression return one of these values.',
		);
	}
	return choice.value;
}

/** The password is checked and sent only with Password privacy. */
export function checkPrivacy(
	ctx: IExecuteSingleFunctions,
	body: IDataObject,
	privacy: number | undefined,
): void {
	const password =
		body.password === undefined ? '' : textParameter(ctx, 'password', 'Password', body.password);
	delete body.password;
	if (privacy === undefined) {
		delete body.privacy;
		return;
	}
	body.privacy = privacy;
	if (privacy !== PRIVACY.password) return;
	if (!password) {
		fail(
			ctx,
			'Password privacy needs a password',
			'Enter the password visitors must type to open the report, or choose another privacy.',
		);
	}
	if (password.length > MAX_PASSWORD_LENGTH) {
		fail(
			ctx,
			`The password is too long (${password.length} characters; phpRank accepts at most ${MAX_PASSWORD_LENGTH})`,
			`Shorten the password to ${MAX_PASSWORD_LENGTH} characters or fewer.`,
		);
	}
	body.password = password;
}

/** A page's URL as typed (https:// added when it has no scheme), or the error that names it: `label` the field. */
export function checkedUrl(
	ctx: IExecuteSingleFunctions,
	value: unknown,
	label = 'The URL',
): string {
	const given = textParameter(ctx, 'url', 'URL', value);
	const url = withScheme(given);
	const problem = given === '' ? 'is empty' : webAddressProblem(url);
	if (problem !== undefined) {
		fail(
			ctx,
			`${label}${given === '' ? '' : ` ${describeValue(given)}`} ${problem}`,
			'Enter the page to analyse, e.g. example.com/pricing (https:// is added) or http://example.com/pricing.',
		);
	}
	return url;
}

/** Report → Create and Create or Re-Run: an http(s) URL (https:// added when it has no scheme), and a password when privacy is Password. */
export async function checkCreateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = { ...(requestOptions.body as IDataObject) };
	// Create or Re-Run's Pages From other than URL has no URL (its checks refuse a value it does not know).
	if (this.getNodeParameter('pagesFrom', 'url') === 'url') body.url = checkedUrl(this, body.url);
	// Nothing given (a blank cell) means the default, Private: never wider than the user chose.
	checkPrivacy(this, body, parsePrivacy(this, body.privacy) ?? DEFAULT_PRIVACY);
	return { ...requestOptions, body };
}

/** List operations: a page size phpRank accepts (it silently replaces any other), a sane limit. */
export async function checkListQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const qs = { ...(requestOptions.qs as IDataObject) };
	for (const [key, value] of Object.entries(qs)) {
		qs[key] = textParameter(this, key, key, value);
		if (qs[key] === '') delete qs[key];
	}
	if (qs.per_page !== undefined) {
		const size = Number(qs.per_page);
		if (!(PAGE_SIZES as readonly number[]).includes(size)) {
			fail(
				this,
				`The page size must be ${PAGE_SIZES_TEXT}, not ${describeValue(qs.per_page)}`,
				'phpRank accepts only these page sizes. Change the Page Size option.',
			);
		}
		qs.per_page = size;
	}
	if (!(this.getNodeParameter('returnAll', false) as boolean)) {
		const limit = this.getNodeParameter('limit', BOUNDS.limit.default) as unknown;
		if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
			fail(
				this,
				`The limit must be a whole number of 1 or more, not ${describeValue(limit)}`,
				'Set Limit to how many results to return, or turn on Return All.',
			);
		}
	}
	return { ...requestOptions, qs };
}

/** `search_by`, with a search only; the former Search By option in saved filters is not read. */
export function searchIn(field: string): PreSendAction {
	return async function searchBy(
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const qs = { ...(requestOptions.qs as IDataObject) };
		const search = qs.search;
		if (
			search === undefined ||
			search === null ||
			(typeof search === 'string' && search.trim() === '')
		)
			delete qs.search_by;
		else qs.search_by = field;
		return { ...requestOptions, qs };
	};
}
