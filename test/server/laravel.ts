// What the Laravel framework under phpRank adds to every answer: JSON encoding, date format,
// the paginator and the HTML pages a client meets instead of JSON.
import { STATUS_CODES } from 'http';

/** PHP's json_encode defaults: slashes escaped as \/ and every non-ASCII character as \uXXXX. */
export function phpJson(value: unknown): string {
	return JSON.stringify(value).replace(/[/\u0080-\uffff]/g, (char) =>
		char === '/' ? '\\/' : '\\u' + char.charCodeAt(0).toString(16).padStart(4, '0'),
	);
}

/** Laravel's serialised date: ISO 8601 UTC with microseconds (MySQL keeps whole seconds). */
export function formatDate(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, '.000000Z');
}

/** rawurlencode(), which Laravel's Arr::query() uses for paginator URLs. */
function rawUrlEncode(value: string): string {
	return encodeURIComponent(value).replace(
		/[!'()*]/g,
		(char) => '%' + char.charCodeAt(0).toString(16).toUpperCase(),
	);
}

export interface PaginatorLink {
	url: string | null;
	label: string;
	active: boolean;
}

export interface Paginated<T> {
	data: T[];
	links: { first: string; last: string; prev: string | null; next: string | null };
	meta: {
		current_page: number;
		from: number | null;
		last_page: number;
		links: PaginatorLink[];
		path: string;
		per_page: number;
		to: number | null;
		total: number;
	};
	status: 200;
}

/** Laravel's LengthAwarePaginator::resolveCurrentPage: anything but a positive integer means page 1. */
export function resolvePage(raw: string | undefined): number {
	const text = (raw ?? '').trim();
	if (!/^[+-]?(0|[1-9]\d*)$/.test(text)) return 1;
	const page = Number(text);
	return page >= 1 && Number.isSafeInteger(page) ? page : 1;
}

/** The page numbers Laravel's UrlWindow shows (onEachSide 3), null standing for "...". */
function pageWindow(current: number, last: number): (number | null)[] {
	const range = (from: number, to: number): number[] =>
		Array.from({ length: to - from + 1 }, (_, i) => from + i);
	const onEachSide = 3;
	if (last < onEachSide * 2 + 8) return range(1, last);
	const window = onEachSide + 4;
	if (current <= window) return [...range(1, window + onEachSide), null, ...range(last - 1, last)];
	if (current > last - window)
		return [...range(1, 2), null, ...range(last - (window + onEachSide - 1), last)];
	return [
		...range(1, 2),
		null,
		...range(current - onEachSide, current + onEachSide),
		null,
		...range(last - 1, last),
	];
}

/**
 * One page of `items` as phpRank's API resources serialise it. `path` is the absolute URL of the
 * list; `rawQuery` is echoed into every link with `page` replaced (or appended).
 */
export function paginate<T>(
	items: T[],
	page: number,
	perPage: number,
	path: string,
	rawQuery: string,
): Paginated<T> {
	const query = new Map<string, string>();
	for (const [key, value] of new URLSearchParams(rawQuery)) query.set(key, value);
	const urlFor = (target: number): string => {
		const params = new Map(query).set('page', String(target));
		return (
			path +
			'?' +
			[...params].map(([key, value]) => `${rawUrlEncode(key)}=${rawUrlEncode(value)}`).join('&')
		);
	};

	const total = items.length;
	const lastPage = Math.max(Math.ceil(total / perPage), 1);
	const data = items.slice((page - 1) * perPage, page * perPage);
	const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
	const prev = page > 1 ? urlFor(page - 1) : null;
	const next = page < lastPage ? urlFor(page + 1) : null;

	return {
		data,
		links: { first: urlFor(1), last: urlFor(lastPage), prev, next },
		meta: {
			current_page: page,
			from,
			last_page: lastPage,
			links: [
				{ url: prev, label: '&laquo; Previous', active: false },
				...pageWindow(page, lastPage).map((n) =>
					n === null
						? { url: null, label: '...', active: false }
						: { url: urlFor(n), label: String(n), active: n === page },
				),
				{ url: next, label: 'Next &raquo;', active: false },
			],
			path,
			per_page: perPage,
			to: from === null ? null : from + data.length - 1,
			total,
		},
		status: 200,
	};
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The body Symfony's RedirectResponse sends along with a Location header. */
export function redirectPage(target: string): string {
	const url = escapeHtml(target);
	return `<!DOCTYPE html>
<html>
    <head>
        <meta charset="UTF-8" />
        <meta http-equiv="refresh" content="0;url='${url}'" />

        <title>Redirecting to ${url}</title>
    </head>
    <body>
        Redirecting to <a href="${url}">${url}</a>.
    </body>
</html>`;
}

/** What nginx answers itself, e.g. a 502 when PHP-FPM is down or a 404 outside the app. */
export function proxyErrorPage(status: number): string {
	const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
	return `<html>
<head><title>${title}</title></head>
<body>
<center><h1>${title}</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;
}
