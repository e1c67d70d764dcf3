/*
 * What phpRank's API accepts and how the node talks to it, each named once. Descriptions, checks,
 * output, tool texts, transport and the trigger build their texts and rules from these.
 */

export const CREDENTIAL_TYPE = 'phpRankApi';

/** The page sizes phpRank accepts; anything else silently becomes the instance default. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const MAX_PAGE_SIZE = PAGE_SIZES[PAGE_SIZES.length - 1];
export const PAGE_SIZES_TEXT = `${PAGE_SIZES.slice(0, -1).join(', ')} or ${MAX_PAGE_SIZE}`;

/** A report password: 1 to 128 characters (phpRank's validation). */
export const MAX_PASSWORD_LENGTH = 128;

/** `privacy` on create and update: each value, its key (as a sheet cell may say it), label and meaning. */
export const PRIVACY_CHOICES = [
	{
		value: 0,
		key: 'public',
		label: 'Public',
		description: 'Anyone with the link can open the report',
	},
	{ value: 1, key: 'private', label: 'Private', description: 'Only you can open the report' },
	{
		value: 2,
		key: 'password',
		label: 'Password',
		description: 'Visitors need a password to open the report',
	},
] as const;
export type PrivacyName = (typeof PRIVACY_CHOICES)[number]['key'];
export type Privacy = (typeof PRIVACY_CHOICES)[number]['value'];
export const PRIVACY = Object.fromEntries(
	PRIVACY_CHOICES.map(({ key, value }) => [key, value]),
) as Record<PrivacyName, Privacy>;
/** The seed spec's default, and the narrowest choice that needs no password. */
export const DEFAULT_PRIVACY = PRIVACY.private;

// phpRank's own filter's thresholds (good > 79, decent 49-79, bad < 49), best first: a score is in
// the first class it reaches. Every other use of the classes is derived from this table.
export const RESULT_CLASSES = [
	{ value: 'good', label: 'Good', from: 79, fromIncluded: false },
	{ value: 'decent', label: 'Decent', from: 49, fromIncluded: true },
	{ value: 'bad', label: 'Bad', from: 0, fromIncluded: true },
] as const;
export type ResultClass = (typeof RESULT_CLASSES)[number]['value'];

/** The lowest and highest whole score of each class, and its range in words (`above 79`, `49 to 79`, `below 49`). */
export const RESULT_CLASS_RANGES = Object.fromEntries(
	RESULT_CLASSES.map(({ value, label, from, fromIncluded }, index) => {
		const low = fromIncluded ? from : from + 1;
		const better = RESULT_CLASSES[index - 1];
		const high = better ? (better.fromIncluded ? better.from - 1 : better.from) : 100;
		const text = !better
			? `above ${low - 1}`
			: index === RESULT_CLASSES.length - 1
				? `below ${high + 1}`
				: `${low} to ${high}`;
		return [value, { label, low, high, text }];
	}),
) as Record<ResultClass, { label: string; low: number; high: number; text: string }>;

/** `good above 79, decent 49-79, bad below 49`: the classes as AI tool texts say them. */
export const RESULT_CLASSES_TEXT = RESULT_CLASSES.map(({ value }) => {
	const { low, high, text } = RESULT_CLASS_RANGES[value];
	return `${value} ${text.includes(' to ') ? `${low}-${high}` : text}`;
}).join(', ');

/** phpRank's default throttle: requests a minute per user. */
export const DEFAULT_RATE_LIMIT = 60;

/** Requests sent to one instance at once, unless the credential says otherwise. */
export const DEFAULT_CONCURRENCY = 5;

// Timeouts without Request Options → Timeout: a create or re-run analyses the page (seconds).
/** Request Options → Wait Out Outages: how long one request is retried while phpRank is unavailable. */
export const WAIT_OUT_OUTAGES = {
	label: 'Wait Out Outages (Seconds)',
	low: 0,
	high: 3600,
	default: 300,
};
export const ANALYSIS_TIMEOUT_MS = 120_000;
export const READ_TIMEOUT_MS = 30_000;

/** A report page's link as users copy it (any scheme or none, a sub-path, a slash, query or fragment after); its group is the report ID. */
export const REPORT_LINK =
	'^\\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:\\/\\/)?[^\\s/?#]+(?:\\/[^\\s?#]*)?\\/reports\\/([1-9][0-9]*)\\/?(?:[?#]\\S*)?\\s*$';

/**
 * The checks phpRank analyses (the keys of a report's `results`): a budget's Checks That Must Pass
 * name only these, so a typo is refused before anything is sent.
 */
export const PHPRANK_CHECKS = [
	'title',
	'meta_description',
	'headings',
	'content_keywords',
	'image_keywords',
	'seo_friendly_url',
	'404_page',
	'robots',
	'noindex',
	'in_page_links',
	'language',
	'favicon',
	'https_encryption',
	'mixed_content',
	'server_signature',
	'unsafe_cross_origin_links',
	'plaintext_email',
	'load_time',
	'page_size',
	'http_requests',
	'text_compression',
	'image_format',
	'defer_javascript',
	'dom_size',
	'doctype',
	'structured_data',
	'meta_viewport',
	'charset',
	'sitemap',
	'social',
	'content_length',
	'text_html_ratio',
	'inline_css',
	'deprecated_html_tags',
	'minification',
] as const;
