import type { INodeProperties } from 'n8n-workflow';

import { RESULT_CLASSES_TEXT } from '../api';

/*
 * What an AI model reads about each operation when the node is used as a tool (phpRank Tool).
 * n8n's own fallback is the operation's action plus " in phpRank" ("Get many reports in phpRank"),
 * which says neither what comes back nor when to call it. A node that declares `toolDescription`
 * itself keeps n8n from adding its own; '@tool' shows these only on the tool.
 */
const TOOL_DESCRIPTIONS: Record<string, Record<string, string>> = {
	report: {
		create: `Audit the SEO of one web page with phpRank: it analyses the URL now (a few seconds) and returns the new report: its ID, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and the checks that failed, grouped by importance. Use it only when the user wants a new, separate report: every call creates one.`,
		createOrRerun: `Audit the SEO of one web page with phpRank, re-using its report: when the page already has a report, its analysis is re-run and "changes" says what changed since the last analysis (e.g. "score 72 → 61; newly failed: title (high)"); otherwise a report is created (changes is null). Returns the report: ID, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and its failed checks by importance. Use it when asked to audit, check or re-check a page, or whether it got worse.`,
		delete:
			'Delete one phpRank SEO report by its ID. It cannot be undone: use it only when the user asks to delete that report.',
		get: `Get one phpRank SEO report by its ID: URL, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and the checks it failed, grouped by importance, with what was wrong. Use it to explain what is wrong with a page and what to fix first.`,
		getAll: `List phpRank SEO reports: ID, URL, score from 0 to 100, class (${RESULT_CLASSES_TEXT}) and analysis date of each, without check details. Use it to find reports or compare pages, e.g. the worst pages of a site; then get one report by its ID for its failed checks.`,
		update:
			'Change a phpRank report by its ID: re-run its SEO analysis (a few seconds; new score and checks) or change who can open it. Returns the updated report; after a re-run, "changes" says what changed (e.g. "score 72 → 61; newly failed: title (high)"). Use it after a page was fixed, to see the new score.',
	},
	project: {
		delete:
			'Delete a phpRank project: every report of one site (host, e.g. example.com). It cannot be undone: use it only when the user asks to delete all reports of that site.',
		getHealth:
			'How a whole site is doing in phpRank (one project, e.g. example.com): a few lines with its average score and class, health score (share of pages without a failed high-importance check), how many pages are good, decent and bad, the top issues and the worst pages with links. Use it when asked how a site is doing or what to fix first across a site.',
		getAll:
			'List phpRank projects, one per site host (e.g. example.com), with their number of reports and average score from 0 to 100. Use it to see which sites are audited and how each one scores overall.',
	},
};

/** Get Health with Output → One Digest reads the digest's own (getHealth.operation.ts). */
const HIDDEN: Record<string, { output: string[] }> = { getHealth: { output: ['digest'] } };

export const toolDescription: INodeProperties[] = Object.entries(TOOL_DESCRIPTIONS).flatMap(
	([resource, operations]) =>
		Object.entries(operations).map(([operation, text]) => ({
			displayName: 'Tool Description',
			name: 'toolDescription',
			type: 'string' as const,
			typeOptions: { rows: 4 },
			default: text,
			description: 'What the AI model reads about this tool: what it does and when to use it',
			displayOptions: {
				show: { '@tool': [true], resource: [resource], operation: [operation] },
				...(HIDDEN[operation] && resource === 'project' ? { hide: HIDDEN[operation] } : {}),
			},
		})),
);
