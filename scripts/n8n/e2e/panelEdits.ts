/**
 * The edits check of ui.e2e.ts: where a user goes after opening the new panels. Two page groups, the second a
 * Regular Expression group with Checks That Must Pass and a share, dragged above the first and still first after
 * a reload; a bad pattern refused in the panel where it was typed, naming the group and the field; competitors
 * added as a list and as one expression; Get Health's Compare With picked from the list. Each step is read back
 * from what n8n saved (it autosaves) and kept as a screenshot.
 */
import type { Locator, Page } from 'playwright-core';

import { same } from '../report';
import type { RestSession } from '../rest';
import type { WorkflowJson } from '../workflow';
import { addOption, type Checks, type PanelUi, TIMEOUT } from './panel';

export const EDIT_NODES = {
	groups: 'Check: two Page Groups, reordered',
	compare: 'Check: Compare With Competitors, edited',
	health: 'Check: Get Health, Compare With',
} as const;

/** The nodes of the edits check (each in a workflow of its own). */
export const EDIT_PARAMETERS: Record<keyof typeof EDIT_NODES, Record<string, unknown>> = {
	groups: {
		resource: 'report',
		operation: 'createOrRerun',
		url: 'https://example.com/',
		output: 'sites',
	},
	compare: { resource: 'report', operation: 'compare', url: 'https://example.com/' },
	health: {
		resource: 'project',
		operation: 'getHealth',
		project: { __rl: true, mode: 'name', value: 'example.com' },
	},
};

type EditUi = PanelUi & { readonly targets: Map<string, { workflowId: string }> };

/** A node's parameters as n8n saved them, read until `pick` of them equals `want` (n8n autosaves) or time runs out. */
export async function savedAs(
	session: RestSession,
	target: { workflowId: string; node: string },
	pick: (parameters: Record<string, unknown>) => unknown,
	want: unknown,
	page: Page,
): Promise<unknown> {
	const read = async () => {
		const wf = await session.request<{ data: WorkflowJson }>(
			'GET',
			`/rest/workflows/${target.workflowId}`,
		);
		return pick(wf.body.data?.nodes.find((n) => n.name === target.node)?.parameters ?? {});
	};
	let got = await read();
	for (const end = Date.now() + TIMEOUT; !same(got, want) && Date.now() < end; got = await read())
		await page.waitForTimeout(500);
	return got;
}

const input = (scope: Locator, name: string) =>
	scope.locator(`[data-test-id="parameter-input-${name}"] input`);

/** Picks `option` in an options parameter's dropdown. */
async function choose(page: Page, select: Locator, option: string): Promise<void> {
	await select.click();
	await page.locator('.el-select-dropdown__item:visible', { hasText: option }).first().click();
}

/** The group names in the panel, top to bottom. */
const groupNames = async (ndv: Locator) =>
	await input(ndv, 'name').evaluateAll((els) =>
		els.map((el) => (el as unknown as { value: string }).value),
	);

/**
 * Drags the last handle onto the first in small mouse steps with both in view: `dragTo` scrolls to the target
 * with the button down, and the list (sortablejs) then drops nothing once the panel grew taller than the window.
 */
async function dragAbove(page: Page, handles: Locator): Promise<void> {
	await handles.first().scrollIntoViewIfNeeded();
	const [from, to] = [await handles.last().boundingBox(), await handles.first().boundingBox()];
	if (!from || !to) throw new Error('the page groups’ drag handles are not on screen');
	await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
	await page.mouse.down();
	for (let step = 1; step <= 10; step++)
		await page.mouse.move(from.x + from.width / 2, from.y + ((to.y - from.y) * step) / 10);
	await page.mouse.up();
}

type Edit = (ui: EditUi, session: RestSession, s: Checks) => Promise<void>;
const targetOf = (ui: EditUi, node: string) => ({
	workflowId: ui.targets.get(node)?.workflowId ?? '',
	node,
});

const editGroups: Edit = async (ui, session, s) => {
	const groups = targetOf(ui, EDIT_NODES.groups);
	const blog = {
		name: 'Blog',
		pattern: '^/blog/\\d+',
		patternType: 'regex',
		budget: { requiredChecks: 'meta_description:90, title' },
	};
	await ui.inPanel(EDIT_NODES.groups, 'two page groups', async (page) => {
		const ndv = page.locator('[data-test-id="ndv"]');
		const add = ndv.getByRole('button', { name: 'Add Page Group' }).first();
		await add.click();
		await input(ndv, 'name').last().fill('Products');
		await input(ndv, 'pattern').last().fill('/products/**');
		await add.click();
		await input(ndv, 'name').last().fill(blog.name);
		await input(ndv, 'pattern').last().fill(blog.pattern);
		await choose(
			page,
			ndv.locator('[data-test-id="parameter-input-patternType"]').last(),
			'Regular Expression',
		);
		const budget = ndv
			.locator('[data-test-id="parameter-item"]', {
				has: page.locator('[data-test-id="collection-parameter-add"]'),
			})
			.filter({ hasText: /^\s*Budget/ })
			.last();
		await addOption(page, budget, 'Checks That Must Pass');
		await input(ndv, 'requiredChecks').last().fill(blog.budget.requiredChecks);
		await page.keyboard.press('Tab');
		await ui.screenshot(page, 'edits-two-groups');
		await input(ndv, 'name').last().click(); // closes the Add Rule list, which covers the panel
		await dragAbove(page, ndv.locator('.drag-handle'));
		await ui.screenshot(page, 'edits-groups-dragged');
		const want = [blog, { name: 'Products', pattern: '/products/**', budget: {} }];
		const got = await savedAs(
			session,
			groups,
			(p) => (p.pageGroups as { group?: unknown })?.group,
			want,
			page,
		);
		const saved = s.check(
			'two page groups (Blog a Regular Expression group with Checks That Must Pass meta_description:90, title) dragged into the order Blog, Products: saved so',
			same(got, want),
			got,
		);
		// Then a bad pattern in the same tab (a new tab would find the workflow locked by this one).
		await input(ndv, 'pattern').first().fill('^/blog/(');
		await page.keyboard.press('Tab');
		await ndv.locator('[data-test-id="node-execute-button"]').first().click();
		const error = page
			.locator('[data-test-id="output-panel"] [data-test-id="node-error-message"]')
			.first();
		await error.waitFor({ timeout: TIMEOUT });
		const text = await error.innerText();
		await ui.screenshot(page, 'edits-bad-pattern-refused');
		const refused = s.check(
			'a bad regular expression typed in the panel is refused beside it, naming the group and the field',
			/group 1 \(Blog\) → URL Pattern: "\^\/blog\/\(" is not a regular expression/.test(text),
			text,
		);
		await page.reload();
		await input(ndv, 'name').first().waitFor({ timeout: TIMEOUT });
		const names = await groupNames(ndv);
		await ui.screenshot(page, 'edits-groups-reopened');
		const kept = s.check(
			'reloaded, the panel shows Blog above Products',
			same(names, ['Blog', 'Products']),
			names,
		);
		return saved && refused && kept;
	});
};

const editCompetitors: Edit = async (ui, session, s) =>
	await ui.inPanel(EDIT_NODES.compare, 'competitors', async (page) => {
		const rivals = page.locator('[data-test-id="fixed-collection-competitors"]');
		const add = page
			.locator('[data-test-id="ndv"]')
			.getByRole('button', { name: 'Add Competitor' })
			.first();
		const urls = [
			'https://rival-a.example/pricing',
			'rival-b.example/pricing',
			'{{ $json.more_rivals }}',
		];
		for (const url of urls) {
			await add.click();
			await input(rivals, 'url').last().fill(url);
		}
		await page.keyboard.press('Tab');
		await ui.screenshot(page, 'edits-competitors');
		const want = [urls[0], urls[1], `=${urls[2]}`];
		const got = await savedAs(
			session,
			targetOf(ui, EDIT_NODES.compare),
			(p) =>
				// Typed into a field, "{{" turns it into an expression as "=  {{ … }}": spaces read as none.
				((p.competitors as { competitor?: Array<{ url: string }> })?.competitor ?? []).map((c) =>
					c.url.replace(/^=\s+/, '='),
				),
			want,
			page,
		);
		return s.check(
			'Compare With Competitors: two competitors typed and one expression (a list from the input) saved as typed',
			same(got, want),
			got,
		);
	});

const pickCompareWith: Edit = async (ui, session, s) =>
	await ui.inPanel(EDIT_NODES.health, 'compare with', async (page) => {
		await page
			.locator('[data-test-id="ndv"]')
			.getByRole('button', { name: 'Add Project' })
			.first()
			.click();
		const picker = page
			.locator('[data-test-id="fixed-collection-compareWith"] [data-test-id="rlc-input"]')
			.first();
		await picker.click();
		await page
			.locator('[data-test-id="rlc-item"]:visible', { hasText: 'blog.acme.io' })
			.first()
			.click();
		await ui.screenshot(page, 'edits-compare-with');
		const want = [{ project: { __rl: true, mode: 'list', value: 'blog.acme.io' } }];
		type Picked = { project?: { __rl: boolean; mode: string; value: string } };
		const picks = (p: Record<string, unknown>) =>
			((p.compareWith as { site?: Picked[] })?.site ?? []).map(({ project }) => ({
				project: { __rl: project?.__rl, mode: project?.mode, value: project?.value },
			}));
		const got = await savedAs(session, targetOf(ui, EDIT_NODES.health), picks, want, page);
		return s.check(
			"Get Health's Compare With: blog.acme.io picked from the list, saved as a list pick",
			same(got, want),
			got,
		);
	});

export async function checkPanelEdits(ui: EditUi, session: RestSession, s: Checks): Promise<void> {
	for (const edit of [editGroups, editCompetitors, pickCompareWith]) await edit(ui, session, s);
}
