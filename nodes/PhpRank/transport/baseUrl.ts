/**
 * The API root of an instance from the Base URL a user pasted, in code, for the places that do not
 * go through `requestDefaults` (pickers, the trigger). It must agree with the `API_BASE_URL`
 * expression of the credential; test/unit/baseUrl.test.ts holds both to the same cases.
 */
export function apiBaseUrl(baseUrl: unknown): string {
	return `${String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1$/i, '')}/api/v1`;
}
