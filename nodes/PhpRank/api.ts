/*
 * What phpRank's API accepts and how the node talks to it, each named once. Descriptions, checks
 * and transport build their texts and rules from these.
 */

/** The credential type of every phpRank request. */
export const CREDENTIAL_TYPE = 'phpRankApi';

/** The page sizes phpRank accepts; anything else silently becomes the instance default. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const MAX_PAGE_SIZE = PAGE_SIZES[PAGE_SIZES.length - 1];
export const PAGE_SIZES_TEXT = `${PAGE_SIZES.slice(0, -1).join(', ')} or ${MAX_PAGE_SIZE}`;

/** A report password: 1 to 128 characters (phpRank's validation). */
export const MAX_PASSWORD_LENGTH = 128;

/** `privacy` on create and update. */
export const PRIVACY = { public: 0, private: 1, password: 2 } as const;
/** The seed spec's default, and the narrowest choice that needs no password. */
export const DEFAULT_PRIVACY = PRIVACY.private;

/** phpRank's default throttle: requests a minute per user. */
export const DEFAULT_RATE_LIMIT = 60;

/** Requests sent to one instance at once, unless the credential says otherwise. */
export const DEFAULT_CONCURRENCY = 5;

/**
 * Request timeouts when Request Options → Timeout is not set. A create or a re-run analyses the
 * page before phpRank answers (seconds, more for slow sites); everything else answers in well
 * under a second.
 */
export const ANALYSIS_TIMEOUT_MS = 120_000;
export const READ_TIMEOUT_MS = 30_000;

/** A report page's link as users copy it (any scheme or none, a sub-path, a slash, query or fragment after); its group is the report ID. */
export const REPORT_LINK = '^\\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:\\/\\/)?[^\\s/?#]+(?:\\/[^\\s?#]*)?\\/reports\\/([1-9][0-9]*)\\/?(?:[?#]\\S*)?\\s*$';
