/**
 * The API root of an instance from the Base URL a user pasted: with or without a trailing slash
 * or `/api/v1`, on a sub-path, or copied from the browser with a query or fragment (`?tab=1`,
 * `#reports`), which would otherwise end up in front of every API path. The one rule for the
 * nodes and the credential test.
 */
export function apiBaseUrl(baseUrl: unknown): string {
	return `${String(baseUrl ?? '')
		.trim()
		.replace(/[?#].*$/, '')
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '')}/api/v1`;
}

/** An absolute http(s) address with a host: anything else is refused before a request is made. */
export function isApiBaseUrl(baseURL: string): boolean {
	if (!/^https?:\/\/[^/?#]+/i.test(baseURL)) return false;
	try {
		return new URL(baseURL).hostname !== '';
	} catch {
		return false;
	}
}
