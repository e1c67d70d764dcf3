/**
 * examples/lead-audit-form.json as a visitor meets it: its data table and its one edit (the table's
 * ID; the report's link comes from the phpRank node's `link`), the form submitted over HTTP as a browser does (multipart,
 * then the ending page n8n hands it), and in Chromium. Used by e2e/form.e2e.ts and e2e/ui.e2e.ts.
 * NOTES.md, "Forms", says what n8n does at each step.
 */
import type { BrowserContext } from 'playwright-core';

import { createDataTable, type DataTable, dataTableRows } from './dataTable';
import { type RestSession, saveAndPublish, sentAgainIfClosed } from './rest';
import type { WorkflowJson } from './workflow';

export const FORM_EXAMPLE = {
	file: 'lead-audit-form.json',
	path: 'free-seo-audit',
	table: 'SEO audit leads',
	tablePlaceholder: 'REPLACE-WITH-YOUR-DATA-TABLE-ID',
	consent: 'I agree to receive the audit and to be contacted about it',
	refusedTitle: 'We could not audit this address',
};

export type LeadsTable = DataTable;

/** The data table the example's sticky note asks for, made through n8n's REST API (the UI's "Create data table"). */
export async function createLeadsTable(session: RestSession): Promise<LeadsTable> {
	return await createDataTable(session, FORM_EXAMPLE.table, [
		{ name: 'url', type: 'string' },
		{ name: 'email', type: 'string' },
		{ name: 'score', type: 'number' },
		{ name: 'audited_at', type: 'date' },
		{ name: 'comparison', type: 'string' },
	]);
}

/** The table's rows, in the order they were added. */
export const leadRows = dataTableRows;

/** The example with the value its sticky note tells a user to set (the table), and nothing else changed. */
export function formWorkflow(example: WorkflowJson, table: LeadsTable): WorkflowJson {
	const text = JSON.stringify(example).replace(FORM_EXAMPLE.tablePlaceholder, table.id);
	return { ...(JSON.parse(text) as WorkflowJson), name: `e2e: ${example.name}` };
}

export interface PublishedForm {
	table: LeadsTable;
	workflowId: string;
	formUrl: string;
	/** what the editor's Publish answered */
	publishStatus: number;
}

/**
 * The example as a user sets it up in the editor: the data table made, the workflow imported (POST
 * /rest/workflows, as Import from File saves it) with the table's ID, then
 * published (the Publish button: POST /rest/workflows/<id>/activate); waits until its form answers.
 */
export async function publishFormExample(
	session: RestSession,
	example: WorkflowJson,
): Promise<PublishedForm> {
	const table = await createLeadsTable(session);
	const { id, published } = await saveAndPublish(session, formWorkflow(example, table));
	const formUrl = `${session.baseUrl}/form/${FORM_EXAMPLE.path}`;
	await waitForForm(formUrl);
	return { table, workflowId: id, formUrl, publishStatus: published.status };
}

export interface Submission {
	/** the answer to the multipart POST: {"formWaitingUrl": …} when the workflow ends on a Form page */
	postStatus: number;
	/** the ending page, as the browser is sent to it */
	endingStatus: number;
	endingHtml: string;
	/** the execution's status once the ending page has resumed it (as its script does) */
	finalStatus: string;
	/** from the POST to the ending page's HTML, in ms */
	ms: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET the form until n8n has registered it (a published workflow's webhooks come a moment after start). */
export async function waitForForm(formUrl: string, timeoutMs = 60_000): Promise<Response> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await sentAgainIfClosed('GET', () => fetch(formUrl));
		if (res.status !== 404 || Date.now() > deadline) return res;
		await pause(500);
	}
}

/** The execution's status as the form page polls it: `<waiting URL>/n8n-execution-status`. */
async function executionStatus(waitingUrl: string): Promise<string> {
	const url = new URL(waitingUrl);
	url.pathname += '/n8n-execution-status';
	return (await (await sentAgainIfClosed('GET', () => fetch(url))).text()).trim();
}

/** The execution's status once it is none of `busy`, or after a minute. */
async function statusOtherThan(waitingUrl: string, busy: string[]) {
	const deadline = Date.now() + 60_000;
	let status = await executionStatus(waitingUrl);
	while (busy.includes(status) && Date.now() < deadline) {
		await pause(200);
		status = await executionStatus(waitingUrl);
	}
	return status;
}

/**
 * Submits the form as its page's script does: the fields as `field-<n>` in multipart/form-data (a checkbox
 * group as a JSON list), then the status polled until the ending page waits, the page fetched, and the POST
 * its script sends to finish the execution.
 */
export async function submitForm(
	formUrl: string,
	answers: { website: string; email: string; competitor?: string },
): Promise<Submission> {
	const started = Date.now();
	const fields = new FormData();
	fields.append('field-0', answers.website);
	fields.append('field-1', answers.email);
	fields.append('field-2', JSON.stringify([FORM_EXAMPLE.consent]));
	// The optional competitor's website: sent empty, as the page sends a field left blank.
	fields.append('field-3', answers.competitor ?? '');
	const post = await sentAgainIfClosed('POST', () =>
		fetch(formUrl, { method: 'POST', body: fields }),
	);
	const answer = await post.text();
	const waitingUrl = (JSON.parse(answer) as { formWaitingUrl?: string }).formWaitingUrl;
	if (!waitingUrl)
		throw new Error(`the form's POST answered ${post.status} ${answer.slice(0, 300)}`);
	await statusOtherThan(waitingUrl, ['new', 'running', 'null']);
	const ending = await sentAgainIfClosed('GET', () => fetch(waitingUrl));
	const endingHtml = await ending.text();
	const ms = Date.now() - started;
	await sentAgainIfClosed('POST', () => fetch(waitingUrl, { method: 'POST' }));
	const finishing = ['new', 'running', 'waiting', 'form-waiting'];
	const finalStatus = await statusOtherThan(waitingUrl, finishing);
	return { postStatus: post.status, endingStatus: ending.status, endingHtml, finalStatus, ms };
}

/** The ending page's card as text: its title and message, tags dropped, entities read. */
export function endingText(html: string): string {
	const card = /<div class='card'>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
	return card
		.replace(/<[^>]+>/g, ' ')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#x27;|&#39;/g, "'")
		.replace(/&amp;/g, '&')
		.replace(/\s+/g, ' ')
		.trim();
}

/** In Chromium: the form opened, filled and submitted as a visitor does; the ending page screenshotted. */
export async function visitForm(
	context: BrowserContext,
	formUrl: string,
	answers: { website: string; email: string },
	screenshot: string,
	timeoutMs: number,
): Promise<string> {
	const page = await context.newPage();
	try {
		await page.goto(formUrl);
		await page.locator('form#n8n-form').waitFor({ timeout: timeoutMs });
		await page.fill('#field-0', answers.website);
		await page.fill('#field-1', answers.email);
		await page.locator('.multiselect-checkbox').first().check();
		await page.locator('#submit-btn').click();
		// The page polls the execution and moves to /form-waiting/<execution> once the ending page waits.
		await page.waitForURL(/\/form-waiting\//, { timeout: timeoutMs });
		await page.locator('.card .header h1').waitFor({ timeout: timeoutMs });
		await page.screenshot({ path: screenshot, fullPage: true });
		return (await page.locator('.card').first().innerText()).trim();
	} finally {
		await page.close();
	}
}
