import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { PAGE_SIZES } from '../api';
import { projectSpec } from '../descriptions/project/projectSpec';
import { apiBaseUrl, isApiBaseUrl } from '../transport/connection';
import { networkCause } from '../transport/errors';

const EXAMPLE = 'Use the address you open phpRank with, e.g. https://seo.example.com.';

/** What the credential's Test button says, for each way the test request can end. */
export const CREDENTIAL_TEST_MESSAGES = {
	ok: 'Connection successful!',
	401: 'The API key was rejected (HTTP 401). Copy it again from the API page of your phpRank account.',
	403: 'The API key is valid, but your phpRank plan has no API access (HTTP 403). Enable the API feature for your plan in phpRank.',
	404: `No phpRank API at this Base URL (HTTP 404). ${EXAMPLE}`,
	notPhpRank: `This Base URL answers, but not like a phpRank API (no JSON list came back). ${EXAMPLE}`,
	invalidUrl: `The Base URL is not a valid web address. ${EXAMPLE}`,
	noScheme:
		'The Base URL must start with https:// (or http://), e.g. https://seo.example.com. Enter the address you open phpRank with in the browser.',
	429: 'phpRank is rate limiting this API key (HTTP 429): wait a minute and test again.',
};

/** What to do when nothing answered, by the error code n8n's HTTP client gave. */
const unreachableHints: Array<[RegExp, string]> = [
	[/^(ENOTFOUND|EAI_AGAIN)$/, 'Check the host name in the Base URL for typos.'],
	[
		/^ECONNREFUSED$/,
		'Check the port in the Base URL (without one, https:// means 443 and http:// 80) and that phpRank is running.',
	],
	[
		/CERT|SELF_SIGNED|SIGNATURE/,
		'Give the phpRank server a valid TLS certificate for this host name.',
	],
];
const UNREACHABLE_HINT =
	'Check the Base URL, and that phpRank is online and reachable from the n8n server (firewall, proxy).';

const TEST_TIMEOUT_MS = 30_000;

/**
 * The phpRank credential's Test button (the nodes name it in `testedBy`). n8n tests a credential
 * with a declarative `test` request when it has one, and then reports a failed connection as a bare
 * code (ECONNREFUSED, ENOTFOUND, ERR_INVALID_URL); this function says what happened and what to fix.
 * It sends the cheapest read of the API, as the nodes do: the first page of the project list with the key as Bearer token.
 */
export async function phpRankApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data: ICredentialDataDecryptedObject = credential.data ?? {};
	const apiRoot = apiBaseUrl(data.baseUrl);
	if (!/^https?:\/\//i.test(apiRoot)) return failed(CREDENTIAL_TEST_MESSAGES.noScheme);
	if (!isApiBaseUrl(apiRoot)) return failed(CREDENTIAL_TEST_MESSAGES.invalidUrl);
	const { host } = new URL(apiRoot);

	// A credential test gets only n8n's legacy `request` helper, which the community lint reports as
	// deprecated wherever `this.helpers.request` is written, though no other helper exists here
	// (n8n-io/n8n#25190).
	const { request } = this.helpers;
	let response: {
		statusCode: number;
		statusMessage?: string;
		headers: Record<string, unknown>;
		body: unknown;
	};
	try {
		response = await request({
			method: 'GET',
			uri: `${apiRoot}${projectSpec.path}`,
			qs: { per_page: PAGE_SIZES[0] },
			// Without Accept: application/json phpRank answers a wrong key with a 302 to its login page.
			headers: { Accept: 'application/json', Authorization: `Bearer ${String(data.apiKey ?? '')}` },
			resolveWithFullResponse: true,
			simple: false,
			// phpRank's API never redirects; following one could carry the key to another host.
			followRedirect: false,
			timeout: TEST_TIMEOUT_MS,
		});
	} catch (error) {
		const { code, cause } = networkCause(error);
		if (code === 'ERR_INVALID_URL') return failed(CREDENTIAL_TEST_MESSAGES.invalidUrl);
		const hint =
			unreachableHints.find(([pattern]) => code && pattern.test(code))?.[1] ?? UNREACHABLE_HINT;
		return failed(`Could not reach phpRank at ${host}: ${cause}. ${hint}`);
	}

	const { statusCode } = response;
	if (statusCode === 401 || statusCode === 403 || statusCode === 404 || statusCode === 429)
		return failed(CREDENTIAL_TEST_MESSAGES[statusCode]);
	if (statusCode >= 300 && statusCode < 400) {
		const target = originOf(String(response.headers.location ?? ''), apiRoot);
		return failed(
			`This Base URL redirects (HTTP ${statusCode})${target ? ` to ${target}` : ''}, and the phpRank node does not follow redirects. ` +
				`Enter the address phpRank answers at${target ? `, e.g. ${target} if that is your instance` : ''}.`,
		);
	}
	if (statusCode >= 500)
		return failed(
			`The phpRank server at ${host} failed (HTTP ${statusCode}). Try again later, or ask its administrator to check the logs.`,
		);
	if (statusCode >= 400)
		return failed(
			`phpRank at ${host} answered HTTP ${statusCode} ${response.statusMessage ?? ''}`.trim() + '.',
		);
	return isProjectList(response.body)
		? { status: 'OK', message: CREDENTIAL_TEST_MESSAGES.ok }
		: failed(CREDENTIAL_TEST_MESSAGES.notPhpRank);
}

function failed(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}

/** `https://host[:port]` of a redirect target (relative ones resolved against `base`), or ''. */
function originOf(url: string, base: string): string {
	try {
		const { origin } = new URL(url, base);
		return origin === 'null' ? '' : origin;
	} catch {
		return '';
	}
}

function isProjectList(body: unknown): boolean {
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return false;
		}
	}
	return (
		!!parsed && typeof parsed === 'object' && Array.isArray((parsed as { data?: unknown }).data)
	);
}
