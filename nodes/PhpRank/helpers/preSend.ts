import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { inputError } from '../transport/errors';
import { redactedNode } from '../transport/redact';

/*
 * Request shaping and input checks, run by RoutingNode before the request is sent. Each one stops
 * bad input with an error that says which field to fix, so nothing reaches phpRank.
 */

/** The page sizes phpRank accepts; anything else silently becomes the instance default. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const MAX_PASSWORD_LENGTH = 128;
const PRIVACY_VALUES = [0, 1, 2];
const PASSWORD_PRIVACY = 2;

function fail(ctx: IExecuteSingleFunctions, message: string, description: string): never {
	throw inputError(redactedNode(ctx.getNode()), message, description, ctx.getItemIndex());
}

function describeValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'nothing';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return `"${String(value)}"`;
}

/** A scalar text parameter; expressions can hand over objects and arrays. */
function textParameter(ctx: IExecuteSingleFunctions, name: string, label: string, value: unknown): string {
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

/** Sets the path of operations on one report, with a checked ID. */
export async function reportPath(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const id = parseReportId(this, this.getNodeParameter('reportId', undefined, { extractValue: true }));
	return { ...requestOptions, url: `/reports/${id}` };
}

/**
 * Sets the path of operations on one project. The name always travels as one encoded path
 * segment, so `a/b`, `..`, `?`, `#` or `%` can never reach another route.
 */
export async function projectPath(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const name = textParameter(
		this,
		'project',
		'Project',
		this.getNodeParameter('project', undefined, { extractValue: true }),
	);
	if (!name) {
		fail(this, 'The project name is empty', 'Choose a project from the list, or enter its name (the site’s host, e.g. example.com).');
	}
	// URL parsers resolve a `.` or `..` segment (even as %2e%2e) against the path: the request
	// would reach another route. Such a name cannot be a host, so it is refused.
	if (name === '.' || name === '..') {
		fail(this, `"${name}" cannot be a project name`, 'A project is named after its host, e.g. example.com.');
	}
	return { ...requestOptions, url: `/projects/${encodeURIComponent(name)}` };
}

function checkPrivacy(ctx: IExecuteSingleFunctions, body: IDataObject): void {
	if (body.privacy === undefined) return;
	const privacy = Number(textParameter(ctx, 'privacy', 'Privacy', body.privacy));
	if (!PRIVACY_VALUES.includes(privacy)) {
		fail(ctx, `Privacy must be 0 (Public), 1 (Private) or 2 (Password), not ${describeValue(body.privacy)}`, 'Pick one of the Privacy options.');
	}
	body.privacy = privacy;
	if (privacy !== PASSWORD_PRIVACY) return;
	const password = body.password === undefined ? '' : textParameter(ctx, 'password', 'Password', body.password);
	if (!password) {
		fail(ctx, 'Password privacy needs a password', 'Enter the password visitors must type to open the report, or choose another privacy.');
	}
	if (password.length > MAX_PASSWORD_LENGTH) {
		fail(
			ctx,
			`The password is too long (${password.length} characters; phpRank accepts at most ${MAX_PASSWORD_LENGTH})`,
			`Shorten the password to ${MAX_PASSWORD_LENGTH} characters or fewer.`,
		);
	}
}

/** Report → Create: an http(s) URL, and a password when privacy is Password. */
export async function checkCreateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = { ...(requestOptions.body as IDataObject) };
	const url = textParameter(this, 'url', 'URL', body.url);
	let valid = false;
	try {
		const parsed = new URL(url);
		valid = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
	} catch {
		valid = false;
	}
	if (!valid) {
		fail(
			this,
			`The URL must be a full http:// or https:// address, not ${describeValue(url)}`,
			'Enter the page to analyse with its scheme, e.g. https://example.com/pricing.',
		);
	}
	body.url = url;
	checkPrivacy(this, body);
	return { ...requestOptions, body };
}

/** Report → Update: sends only the fields the user added; Re-Run Analysis becomes `results=1`. */
export async function buildUpdateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
	const body: IDataObject = {};
	if (fields.privacy !== undefined) body.privacy = fields.privacy;
	if (fields.password !== undefined && fields.password !== '') body.password = fields.password;
	if (fields.rerunAnalysis !== undefined) body.results = fields.rerunAnalysis ? 1 : 0;
	if (body.password !== undefined && body.privacy === undefined) {
		fail(this, 'A password only applies with Password privacy', 'Add Privacy to the update fields and set it to Password, or remove the Password field.');
	}
	if (Object.keys(body).length === 0) {
		fail(this, 'Nothing to update', 'Add at least one field under Update Fields: Privacy, Password or Re-Run Analysis.');
	}
	checkPrivacy(this, body);
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
			fail(this, `The page size must be 10, 25, 50 or 100, not ${describeValue(qs.per_page)}`, 'phpRank accepts only these page sizes. Change the Page Size option.');
		}
		qs.per_page = size;
	}
	if (!(this.getNodeParameter('returnAll', false) as boolean)) {
		const limit = this.getNodeParameter('limit', 50) as unknown;
		if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
			fail(this, `The limit must be a whole number of 1 or more, not ${describeValue(limit)}`, 'Set Limit to how many results to return, or turn on Return All.');
		}
	}
	return { ...requestOptions, qs };
}
