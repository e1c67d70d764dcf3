import type { CheckResult, Importance } from './types';

export type Rng = () => number;

// Module-level copies: under Jest this code runs in a vm context, where every read of a global such
// as Math goes through the context's interceptor (~100 ns a read), which made seeding thousands of reports several times slower.
const { imul, floor, min: mathMin, max: mathMax, round } = Math;
const arrayFrom = Array.from;

/** FNV-1a: turns any text into a 32-bit PRNG seed. */
export function hashSeed(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** mulberry32: small, fast and good enough to make test data look varied yet reproducible. */
export function createRng(seed: number): Rng {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function randomInt(rng: Rng, min: number, max: number): number {
	return min + floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
	return items[floor(rng() * items.length)];
}

function pickSome<T>(rng: Rng, items: readonly T[], min: number, max: number): T[] {
	const pool = [...items];
	const count = mathMin(randomInt(rng, min, max), pool.length);
	const chosen: T[] = [];
	for (let i = 0; i < count; i++) chosen.push(pool.splice(floor(rng() * pool.length), 1)[0]);
	return chosen;
}

interface PageContext {
	/** The cleaned report url, e.g. example.com/blog/seo-basics */
	url: string;
	host: string;
	origin: string;
	words: string[];
}

interface CheckOutcome {
	value: unknown;
	errors?: Record<string, unknown>;
}

interface CheckDefinition {
	name: string;
	importance: Importance;
	build(rng: Rng, page: PageContext, passed: boolean): CheckOutcome;
}

const WEIGHTS: Record<Importance, number> = { high: 10, medium: 6, low: 3 };

const KEYWORDS = (
	'seo audit report pricing guide widgets performance marketing analytics shop blog news tutorial ' +
	'review service support'
).split(' ');

function capitalise(word: string): string {
	return word.charAt(0).toUpperCase() + word.slice(1);
}

function assets(
	rng: Rng,
	page: PageContext,
	folder: string,
	ext: string,
	min: number,
	max: number,
): string[] {
	const count = randomInt(rng, min, max);
	return arrayFrom(
		{ length: count },
		(_, i) => `${page.origin}/${folder}/${pick(rng, KEYWORDS)}-${i + 1}.${ext}`,
	);
}

function missing(passed: boolean, value: unknown): CheckOutcome {
	return passed ? { value } : { value: null, errors: { missing: null } };
}

/** A list check: empty when it passes, else the items found (drawn only then), also in `errors[key]`. */
function found(passed: boolean, key: string, items: () => unknown[]): CheckOutcome {
	if (passed) return { value: [] };
	const list = items();
	return { value: list, errors: { [key]: list } };
}

/** A figure drawn from the passing or the failing range (divided by `scale`); failing names its limit. */
function measured(
	rng: Rng,
	passed: boolean,
	pass: [number, number],
	fail: [number, number],
	errors: Record<string, unknown>,
	scale = 1,
): CheckOutcome {
	const [min, max] = passed ? pass : fail;
	const value = randomInt(rng, min, max) / scale;
	return passed ? { value } : { value, errors };
}

/** Passes with `value`, fails with `failed` (and its errors); `failed` must draw nothing. */
const either = (passed: boolean, value: unknown, failed: CheckOutcome): CheckOutcome =>
	passed ? { value } : failed;

type Build = CheckDefinition['build'];
const check = (name: string, importance: Importance, build: Build): CheckDefinition => ({
	name,
	importance,
	build,
});
const titleOf = (page: PageContext) => page.words.map(capitalise).join(' ');

// Shapes follow phpRank's report JSON loosely: enough variety for a client to handle real data.
const CHECKS: CheckDefinition[] = [
	check('title', 'high', (rng, page, passed) => {
		const title = titleOf(page) + ' | ' + capitalise(page.host.split('.')[0]);
		if (passed) return { value: title };
		return rng() < 0.5
			? { value: null, errors: { missing: null } }
			: {
					value: `${title} - the complete and definitive guide to everything you ever wanted to know`,
					errors: { too_long: { max: 60 } },
				};
	}),
	check('meta_description', 'high', (_rng, page, passed) =>
		missing(
			passed,
			`Learn about ${page.words.join(' ')} on ${page.host}: guides, pricing and support for teams of every size.`,
		),
	),
	check('headings', 'high', (rng, page, passed) => {
		const h1 = titleOf(page);
		const h2 = pickSome(rng, KEYWORDS, 1, 4).map(capitalise);
		if (passed) return { value: { h1: [h1], h2 } };
		return rng() < 0.5
			? { value: { h2 }, errors: { missing: null } }
			: { value: { h1: [h1, `${h1} again`], h2 }, errors: { duplicate: null } };
	}),
	check('content_keywords', 'high', (_rng, page, passed) =>
		either(passed, page.words, { value: [], errors: { missing: page.words } }),
	),
	check('image_keywords', 'medium', (rng, page, passed) =>
		found(passed, 'missing', () => assets(rng, page, 'images', 'jpg', 1, 4)),
	),
	check('seo_friendly_url', 'high', (rng, page, passed) =>
		passed
			? { value: `https://${page.url}` }
			: {
					value: `https://${page.host}/index.php?id=${randomInt(rng, 10, 999)}&_sid=ab12`,
					errors: { bad_format: null },
				},
	),
	check('404_page', 'high', (rng, page, passed) =>
		missing(passed, `${page.origin}/${randomInt(rng, 100000, 999999)}-404-check`),
	),
	check('robots', 'high', (_rng, page, passed) =>
		either(passed, `${page.origin}/robots.txt`, {
			value: `${page.origin}/robots.txt`,
			errors: { failed: ['Disallow: /'] },
		}),
	),
	check('noindex', 'high', (_rng, _page, passed) =>
		either(passed, null, { value: 'noindex, nofollow', errors: { noindex: 'noindex, nofollow' } }),
	),
	check('in_page_links', 'medium', (rng, page, passed) => {
		const internals = randomInt(rng, passed ? 8 : 120, passed ? 90 : 180);
		const externals = randomInt(rng, passed ? 0 : 30, passed ? 40 : 80);
		const value = {
			Internals: arrayFrom({ length: mathMin(internals, 5) }, (_, i) => ({
				url: `${page.origin}/${KEYWORDS[i]}`,
				text: capitalise(KEYWORDS[i]),
			})),
			Externals: arrayFrom({ length: mathMin(externals, 3) }, (_, i) => ({
				url: `https://partner${i + 1}.example.net/`,
				text: `Partner ${i + 1}`,
			})),
			total: internals + externals,
		};
		return either(passed, value, { value, errors: { too_many: { max: 150 } } });
	}),
	check('language', 'medium', (rng, _page, passed) =>
		missing(passed, pick(rng, ['en', 'en-US', 'de', 'fr', 'es'])),
	),
	check('favicon', 'medium', (_rng, page, passed) => missing(passed, `${page.origin}/favicon.ico`)),
	check('https_encryption', 'high', (_rng, page, passed) =>
		either(passed, `https://${page.url}`, {
			value: `http://${page.url}`,
			errors: { missing: null },
		}),
	),
	check('mixed_content', 'medium', (rng, page, passed) =>
		found(passed, 'javascripts', () =>
			assets(rng, page, 'js', 'js', 1, 2).map((url) => url.replace('https:', 'http:')),
		),
	),
	check('server_signature', 'medium', (rng, _page, passed) => {
		if (passed) return { value: null };
		const signature = pick(rng, ['Apache/2.4.41 (Ubuntu)', 'nginx/1.18.0', 'Microsoft-IIS/10.0']);
		return { value: signature, errors: { enabled: signature } };
	}),
	check('unsafe_cross_origin_links', 'medium', (rng, _page, passed) =>
		found(passed, 'unsafe', () =>
			arrayFrom(
				{ length: randomInt(rng, 1, 3) },
				(_, i) => `https://external${i + 1}.example.org/`,
			),
		),
	),
	check('plaintext_email', 'low', (_rng, page, passed) =>
		found(passed, 'emails', () => [`info@${page.host}`]),
	),
	check('load_time', 'high', (rng, _page, passed) =>
		measured(rng, passed, [12, 99], [100, 650], { too_slow: { max: 1 } }, 100),
	),
	check('page_size', 'medium', (rng, _page, passed) =>
		measured(rng, passed, [18000, 329000], [330001, 2400000], { too_large: { max: 330000 } }),
	),
	check('http_requests', 'medium', (rng, page, passed) => {
		const scale = passed ? 1 : 4;
		const value = {
			JavaScripts: assets(rng, page, 'js', 'js', 1 * scale, 6 * scale),
			CSS: assets(rng, page, 'css', 'css', 1 * scale, 3 * scale),
			Images: assets(rng, page, 'images', 'webp', 2 * scale, 10 * scale),
			Audios: [],
			Videos: [],
			Iframes: [],
		};
		return either(passed, value, { value, errors: { too_many: { max: 50 } } });
	}),
	check('text_compression', 'high', (rng, _page, passed) =>
		missing(passed, randomInt(rng, 4000, 60000)),
	),
	check('image_format', 'low', (rng, page, passed) =>
		found(passed, 'bad_format', () => assets(rng, page, 'images', 'png', 1, 5)),
	),
	check('defer_javascript', 'low', (rng, page, passed) =>
		found(passed, 'missing', () => assets(rng, page, 'js', 'js', 1, 4)),
	),
	check('dom_size', 'low', (rng, _page, passed) =>
		measured(rng, passed, [150, 1500], [1501, 5200], { too_large: { max: 1500 } }),
	),
	check('doctype', 'medium', (_rng, _page, passed) => missing(passed, 'html')),
	check('structured_data', 'medium', (_rng, page, passed) =>
		either(
			passed,
			{ 'Open Graph': { 'og:title': titleOf(page), 'og:url': `https://${page.url}` } },
			{ value: [], errors: { missing: null } },
		),
	),
	check('meta_viewport', 'medium', (_rng, _page, passed) =>
		missing(passed, 'width=device-width, initial-scale=1'),
	),
	check('charset', 'medium', (_rng, _page, passed) => missing(passed, 'UTF-8')),
	check('sitemap', 'low', (_rng, page, passed) =>
		either(passed, [`${page.origin}/sitemap.xml`], { value: [], errors: { missing: null } }),
	),
	check('social', 'low', (_rng, page, passed) => {
		const brand = page.host.split('.')[0];
		return either(
			passed,
			{ facebook: [`https://facebook.com/${brand}`], twitter: [`https://x.com/${brand}`] },
			{ value: [], errors: { missing: null } },
		);
	}),
	check('content_length', 'low', (rng, _page, passed) =>
		measured(rng, passed, [500, 3200], [40, 499], { too_few: { min: 500 } }),
	),
	check('text_html_ratio', 'low', (rng, _page, passed) =>
		measured(rng, passed, [10, 45], [1, 9], { too_small: { min: 10 } }),
	),
	check('inline_css', 'low', (rng, _page, passed) =>
		found(passed, 'found', () =>
			arrayFrom({ length: randomInt(rng, 1, 4) }, () =>
				pick(rng, ['color:#333', 'margin:0 auto', 'display:none', 'font-size:12px']),
			),
		),
	),
	check('deprecated_html_tags', 'low', (rng, _page, passed) =>
		passed
			? { value: [] }
			: {
					value: [],
					errors: { bad_tags: { center: randomInt(rng, 1, 4), font: randomInt(rng, 1, 9) } },
				},
	),
	check('minification', 'low', (rng, page, passed) =>
		found(passed, 'not_minified', () => assets(rng, page, 'assets', 'css', 1, 3)),
	),
];

export const CHECK_NAMES: readonly string[] = CHECKS.map((check) => check.name);

/** The weighted share of passed checks, 0-100, as the report's `result`. */
export function scoreOf(results: Record<string, CheckResult>): number {
	let total = 0;
	let earned = 0;
	for (const check of Object.values(results)) {
		const weight = WEIGHTS[check.importance] ?? 0;
		total += weight;
		if (check.passed) earned += weight;
	}
	return total === 0 ? 0 : round((earned / total) * 100);
}

export function hostOf(cleanedUrl: string): string {
	const authority = cleanedUrl.split(/[/?#]/, 1)[0];
	const host = authority.slice(authority.lastIndexOf('@') + 1);
	// Keep IPv6 literals whole; otherwise drop the port.
	return (
		host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')
	).toLowerCase();
}

/**
 * Simulates phpRank's analysis of a page. Each check passes with one probability for the whole
 * page, so pages come out good, decent or bad as a whole (instead of all landing near 50).
 * `targetScore` steers that probability, for records whose result the caller fixed. `forced` sets
 * whether named checks pass (value and errors built to match); the others are drawn as usual, and
 * the random draws are the same with or without it.
 */
export function analyse(
	cleanedUrl: string,
	seed: number,
	targetScore?: number,
	forced?: Readonly<Record<string, boolean>>,
): { result: number; results: Record<string, CheckResult> } {
	const rng = createRng(seed);
	let passRate: number;
	if (targetScore !== undefined) {
		passRate = mathMin(mathMax(targetScore / 100, 0), 1);
	} else {
		const tier = rng();
		passRate =
			tier < 0.4 ? 0.85 + rng() * 0.15 : tier < 0.75 ? 0.55 + rng() * 0.25 : 0.15 + rng() * 0.3;
	}
	const host = hostOf(cleanedUrl);
	const pathWords = cleanedUrl
		.slice(cleanedUrl.split(/[/?#]/, 1)[0].length)
		.split(/[^a-z0-9]+/i)
		.filter((word) => word.length > 2 && !/^\d+$/.test(word))
		.map((word) => word.toLowerCase());
	const page: PageContext = {
		url: cleanedUrl,
		host,
		origin: `https://${host}`,
		words: pathWords.length > 0 ? pathWords.slice(0, 4) : [host.split('.')[0], 'home'],
	};
	const results: Record<string, CheckResult> = {};
	for (const check of CHECKS) {
		const drawn = rng() < passRate;
		const passed = forced?.[check.name] ?? drawn;
		const outcome = check.build(rng, page, passed);
		results[check.name] = {
			passed,
			importance: check.importance,
			value: outcome.value,
			...(outcome.errors ? { errors: outcome.errors } : {}),
		};
	}
	return { result: scoreOf(results), results };
}
