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

const KEYWORDS = [
	'seo',
	'audit',
	'report',
	'pricing',
	'guide',
	'widgets',
	'performance',
	'marketing',
	'analytics',
	'shop',
	'blog',
	'news',
	'tutorial',
	'review',
	'service',
	'support',
];

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

// Shapes follow phpRank's report JSON loosely: enough variety for a client to handle real data.
const CHECKS: CheckDefinition[] = [
	{
		name: 'title',
		importance: 'high',
		build: (rng, page, passed) => {
			const title =
				page.words.map(capitalise).join(' ') + ' | ' + capitalise(page.host.split('.')[0]);
			if (passed) return { value: title };
			return rng() < 0.5
				? { value: null, errors: { missing: null } }
				: {
						value: `${title} - the complete and definitive guide to everything you ever wanted to know`,
						errors: { too_long: { max: 60 } },
					};
		},
	},
	{
		name: 'meta_description',
		importance: 'high',
		build: (_rng, page, passed) =>
			missing(
				passed,
				`Learn about ${page.words.join(' ')} on ${page.host}: guides, pricing and support for teams of every size.`,
			),
	},
	{
		name: 'headings',
		importance: 'high',
		build: (rng, page, passed) => {
			const h1 = page.words.map(capitalise).join(' ');
			const h2 = pickSome(rng, KEYWORDS, 1, 4).map(capitalise);
			if (passed) return { value: { h1: [h1], h2 } };
			return rng() < 0.5
				? { value: { h2 }, errors: { missing: null } }
				: { value: { h1: [h1, `${h1} again`], h2 }, errors: { duplicate: null } };
		},
	},
	{
		name: 'content_keywords',
		importance: 'high',
		build: (_rng, page, passed) =>
			passed ? { value: page.words } : { value: [], errors: { missing: page.words } },
	},
	{
		name: 'image_keywords',
		importance: 'medium',
		build: (rng, page, passed) => {
			if (passed) return { value: [] };
			const images = assets(rng, page, 'images', 'jpg', 1, 4);
			return { value: images, errors: { missing: images } };
		},
	},
	{
		name: 'seo_friendly_url',
		importance: 'high',
		build: (rng, page, passed) =>
			passed
				? { value: `https://${page.url}` }
				: {
						value: `https://${page.host}/index.php?id=${randomInt(rng, 10, 999)}&_sid=ab12`,
						errors: { bad_format: null },
					},
	},
	{
		name: '404_page',
		importance: 'high',
		build: (rng, page, passed) =>
			missing(passed, `${page.origin}/${randomInt(rng, 100000, 999999)}-404-check`),
	},
	{
		name: 'robots',
		importance: 'high',
		build: (_rng, page, passed) =>
			passed
				? { value: `${page.origin}/robots.txt` }
				: { value: `${page.origin}/robots.txt`, errors: { failed: ['Disallow: /'] } },
	},
	{
		name: 'noindex',
		importance: 'high',
		build: (_rng, _page, passed) =>
			passed
				? { value: null }
				: { value: 'noindex, nofollow', errors: { noindex: 'noindex, nofollow' } },
	},
	{
		name: 'in_page_links',
		importance: 'medium',
		build: (rng, page, passed) => {
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
			return passed ? { value } : { value, errors: { too_many: { max: 150 } } };
		},
	},
	{
		name: 'language',
		importance: 'medium',
		build: (rng, _page, passed) => missing(passed, pick(rng, ['en', 'en-US', 'de', 'fr', 'es'])),
	},
	{
		name: 'favicon',
		importance: 'medium',
		build: (_rng, page, passed) => missing(passed, `${page.origin}/favicon.ico`),
	},
	{
		name: 'https_encryption',
		importance: 'high',
		build: (_rng, page, passed) =>
			passed
				? { value: `https://${page.url}` }
				: { value: `http://${page.url}`, errors: { missing: null } },
	},
	{
		name: 'mixed_content',
		importance: 'medium',
		build: (rng, page, passed) => {
			if (passed) return { value: [] };
			const scripts = assets(rng, page, 'js', 'js', 1, 2).map((url) =>
				url.replace('https:', 'http:'),
			);
			return { value: scripts, errors: { javascripts: scripts } };
		},
	},
	{
		name: 'server_signature',
		importance: 'medium',
		build: (rng, _page, passed) => {
			if (passed) return { value: null };
			const signature = pick(rng, ['Apache/2.4.41 (Ubuntu)', 'nginx/1.18.0', 'Microsoft-IIS/10.0']);
			return { value: signature, errors: { enabled: signature } };
		},
	},
	{
		name: 'unsafe_cross_origin_links',
		importance: 'medium',
		build: (rng, _page, passed) => {
			if (passed) return { value: [] };
			const links = arrayFrom(
				{ length: randomInt(rng, 1, 3) },
				(_, i) => `https://external${i + 1}.example.org/`,
			);
			return { value: links, errors: { unsafe: links } };
		},
	},
	{
		name: 'plaintext_email',
		importance: 'low',
		build: (_rng, page, passed) => {
			if (passed) return { value: [] };
			const emails = [`info@${page.host}`];
			return { value: emails, errors: { emails } };
		},
	},
	{
		name: 'load_time',
		importance: 'high',
		build: (rng, _page, passed) => {
			const seconds = passed ? randomInt(rng, 12, 99) / 100 : randomInt(rng, 100, 650) / 100;
			return passed ? { value: seconds } : { value: seconds, errors: { too_slow: { max: 1 } } };
		},
	},
	{
		name: 'page_size',
		importance: 'medium',
		build: (rng, _page, passed) => {
			const bytes = passed ? randomInt(rng, 18000, 329000) : randomInt(rng, 330001, 2400000);
			return passed ? { value: bytes } : { value: bytes, errors: { too_large: { max: 330000 } } };
		},
	},
	{
		name: 'http_requests',
		importance: 'medium',
		build: (rng, page, passed) => {
			const scale = passed ? 1 : 4;
			const value = {
				JavaScripts: assets(rng, page, 'js', 'js', 1 * scale, 6 * scale),
				CSS: assets(rng, page, 'css', 'css', 1 * scale, 3 * scale),
				Images: assets(rng, page, 'images', 'webp', 2 * scale, 10 * scale),
				Audios: [],
				Videos: [],
				Iframes: [],
			};
			return passed ? { value } : { value, errors: { too_many: { max: 50 } } };
		},
	},
	{
		name: 'text_compression',
		importance: 'high',
		build: (rng, _page, passed) => missing(passed, randomInt(rng, 4000, 60000)),
	},
	{
		name: 'image_format',
		importance: 'low',
		build: (rng, page, passed) => {
			if (passed) return { value: [] };
			const images = assets(rng, page, 'images', 'png', 1, 5);
			return { value: images, errors: { bad_format: images } };
		},
	},
	{
		name: 'defer_javascript',
		importance: 'low',
		build: (rng, page, passed) => {
			if (passed) return { value: [] };
			const scripts = assets(rng, page, 'js', 'js', 1, 4);
			return { value: scripts, errors: { missing: scripts } };
		},
	},
	{
		name: 'dom_size',
		importance: 'low',
		build: (rng, _page, passed) => {
			const nodes = passed ? randomInt(rng, 150, 1500) : randomInt(rng, 1501, 5200);
			return passed ? { value: nodes } : { value: nodes, errors: { too_large: { max: 1500 } } };
		},
	},
	{
		name: 'doctype',
		importance: 'medium',
		build: (_rng, _page, passed) => missing(passed, 'html'),
	},
	{
		name: 'structured_data',
		importance: 'medium',
		build: (_rng, page, passed) =>
			passed
				? {
						value: {
							'Open Graph': {
								'og:title': page.words.map(capitalise).join(' '),
								'og:url': `https://${page.url}`,
							},
						},
					}
				: { value: [], errors: { missing: null } },
	},
	{
		name: 'meta_viewport',
		importance: 'medium',
		build: (_rng, _page, passed) => missing(passed, 'width=device-width, initial-scale=1'),
	},
	{
		name: 'charset',
		importance: 'medium',
		build: (_rng, _page, passed) => missing(passed, 'UTF-8'),
	},
	{
		name: 'sitemap',
		importance: 'low',
		build: (_rng, page, passed) =>
			passed ? { value: [`${page.origin}/sitemap.xml`] } : { value: [], errors: { missing: null } },
	},
	{
		name: 'social',
		importance: 'low',
		build: (_rng, page, passed) => {
			const brand = page.host.split('.')[0];
			return passed
				? {
						value: {
							facebook: [`https://facebook.com/${brand}`],
							twitter: [`https://x.com/${brand}`],
						},
					}
				: { value: [], errors: { missing: null } };
		},
	},
	{
		name: 'content_length',
		importance: 'low',
		build: (rng, _page, passed) => {
			const words = passed ? randomInt(rng, 500, 3200) : randomInt(rng, 40, 499);
			return passed ? { value: words } : { value: words, errors: { too_few: { min: 500 } } };
		},
	},
	{
		name: 'text_html_ratio',
		importance: 'low',
		build: (rng, _page, passed) => {
			const ratio = passed ? randomInt(rng, 10, 45) : randomInt(rng, 1, 9);
			return passed ? { value: ratio } : { value: ratio, errors: { too_small: { min: 10 } } };
		},
	},
	{
		name: 'inline_css',
		importance: 'low',
		build: (rng, _page, passed) => {
			if (passed) return { value: [] };
			const found = arrayFrom({ length: randomInt(rng, 1, 4) }, () =>
				pick(rng, ['color:#333', 'margin:0 auto', 'display:none', 'font-size:12px']),
			);
			return { value: found, errors: { found } };
		},
	},
	{
		name: 'deprecated_html_tags',
		importance: 'low',
		build: (rng, _page, passed) =>
			passed
				? { value: [] }
				: {
						value: [],
						errors: { bad_tags: { center: randomInt(rng, 1, 4), font: randomInt(rng, 1, 9) } },
					},
	},
	{
		name: 'minification',
		importance: 'low',
		build: (rng, page, passed) => {
			if (passed) return { value: [] };
			const files = assets(rng, page, 'assets', 'css', 1, 3);
			return { value: files, errors: { not_minified: files } };
		},
	},
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
