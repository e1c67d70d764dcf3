/**
 * Two checks of ui.e2e.ts (NOTES.md, "Editor check", has what they measured): `checkOptionsPanel`, last in the
 * rerun check, measures Create or Re-Run's panel with its defaults and uses its Options collection as a user
 * would (Drop Points only once Confirm Drops is on); `credentialLabels` (the panels check) reads each action
 * panel's credential fields and their labels.
 */
import type { Locator, Page } from 'playwright-core';

import type { Suite } from '../suite';

/**
 * Resource, Operation, URL, Privacy, Simplify. Measured on 2.41.1: 8 before the Options collection (with
 * Confirm Drops, Reuse Recent Analysis and Public URLs Only at the top level), 5 after.
 */
export const PARAMETERS_BEFORE_OUTPUT_MAX = 5;
/** What the Options collection must offer before anything is added (Drop Points comes with Confirm Drops). */
const OFFERED = ['Confirm Drops', 'Public URLs Only', 'Reuse Recent Analysis (Hours)'];
export const TIMEOUT = Number(process.env.UI_TIMEOUT_MS ?? 30_000);

/** What this file needs of ui.e2e.ts's Ui and Suite. */
export interface PanelUi {
	inPanel(node: string, label: string, fn: (page: Page) => Promise<boolean>): Promise<void>;
	screenshot(page: Page, file: string): Promise<string>;
}
export type Checks = Pick<Suite, 'check' | 'note'>;

/** One top-level entry of the parameter list, in the order shown. */
interface Shown {
	label: string;
	name: string;
	notice: boolean;
	top: number;
	bottom: number;
}
export interface PanelMeasure {
	credentials: string[];
	parameters: Shown[];
	/** px from the first credential's top to the last parameter's bottom */
	height: number;
	/** px from the first credential's top to Output's bottom */
	toOutput: number;
}

/** What the measuring code uses of the page's elements (the repo's tsconfig has no DOM types). */
export interface DomElement {
	textContent: string | null;
	children: ArrayLike<DomElement>;
	getAttribute(name: string): string | null;
	getBoundingClientRect(): { top: number; bottom: number; height: number };
	querySelector(selector: string): DomElement | null;
	querySelectorAll(selector: string): ArrayLike<DomElement>;
	parentElement: DomElement | null;
}

/** The node's parameter pane: its credential selects and its top-level parameters, as laid out. */
export async function measurePanel(page: Page): Promise<PanelMeasure> {
	const pane = page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').first();
	await pane.waitFor({ timeout: TIMEOUT });
	await page.waitForTimeout(300); // layout settles
	return await pane.evaluate((el: unknown) => {
		const root = el as DomElement;
		const credentials = Array.from(
			root.querySelectorAll('[data-test-id="node-credentials-select"]'),
		).filter((c) => c.getBoundingClientRect().height > 0);
		// A parameter's label, without the Fixed / Expression switch's words that sit in it.
		const labelOf = (e: DomElement): string =>
			(e.querySelector('label')?.textContent ?? e.textContent ?? '')
				.trim()
				.split('\n')[0]
				.replace(/\s*Fixed\s*Expression\s*$/, '')
				.trim();
		const list = root.querySelector('.parameter-input-list-wrapper');
		const parameters = (list ? Array.from(list.children) : [])
			.filter((c) => c.getBoundingClientRect().height > 0)
			.map((c) => {
				const input = c.querySelector('[data-test-id^="parameter-input-"]');
				const id = input?.getAttribute('data-test-id') ?? '';
				const b = c.getBoundingClientRect();
				// n8n 2.41 renders the credential selects inside the first parameter's entry (Resource).
				const select = c.querySelector('[data-test-id="node-credentials-select"]') !== null;
				return {
					label: select ? 'Resource' : labelOf(c),
					name: /^parameter-input-(?!field$|hint$|item$)(.+)$/.exec(id)?.[1] ?? '',
					notice: c.querySelector('.notice') !== null && input === null,
					top: Math.round(b.top),
					bottom: Math.round(b.bottom),
				};
			});
		const top = Math.min(
			...credentials.map((c) => c.getBoundingClientRect().top),
			...parameters.map((p) => p.top),
		);
		const bottom = Math.max(...parameters.map((p) => p.bottom));
		const output = parameters.find((p) => p.name === 'output');
		return {
			credentials: credentials.map((c) => c.getAttribute('data-test-id') ?? ''),
			parameters,
			height: Math.round(bottom - top),
			toOutput: output ? Math.round(output.bottom - top) : 0,
		};
	});
}

/** The parameters shown above Output (notices not counted). */
function beforeOutput(m: PanelMeasure): Shown[] {
	const at = m.parameters.findIndex((p) => p.name === 'output');
	return (at === -1 ? m.parameters : m.parameters.slice(0, at)).filter((p) => !p.notice);
}

/** The Options collection's "Add Option" list: opens it, reads it, closes it. */
async function offered(page: Page, options: Locator): Promise<string[]> {
	await options.locator('[data-test-id="collection-parameter-add"]').first().click();
	const items = page.locator('[data-test-id="collection-parameter-option"]:visible');
	await items.first().waitFor({ timeout: TIMEOUT });
	const texts = (await items.allInnerTexts()).map((t) => t.trim());
	await page.keyboard.press('Escape');
	await items
		.first()
		.waitFor({ state: 'hidden', timeout: 5_000 })
		.catch(() => undefined);
	return texts;
}

/**
 * Picks `label` in a collection's (`options`) Add list. Under load n8n's dropdown may still be moving when
 * the option is clicked (seen in CI): then it is closed and the pick made once more.
 */
export async function addOption(page: Page, options: Locator, label: string): Promise<void> {
	const pick = async () => {
		await options.locator('[data-test-id="collection-parameter-add"]').first().click();
		await page
			.locator('[data-test-id="collection-parameter-option"]:visible', {
				hasText: new RegExp(`^\\s*${label.replace(/[()]/g, '\\$&')}\\s*$`),
			})
			.first()
			.click({ timeout: TIMEOUT / 2 });
	};
	await pick().catch(async () => {
		await page.keyboard.press('Escape');
		await pick();
	});
}

/** Measures Create or Re-Run's panel, then uses its Options collection (a tab of its own, closed after). */
export async function checkOptionsPanel(ui: PanelUi, node: string, s: Checks): Promise<void> {
	await ui.inPanel(node, 'panel options', async (page) => {
		const m = await measurePanel(page);
		await ui.screenshot(page, 'panel-create-or-rerun-defaults');
		const before = beforeOutput(m);
		s.note(
			`Create or Re-Run's panel (defaults): ${m.credentials.length} credential selects, then ${m.parameters
				.map((p) => `${p.notice ? 'a notice' : p.label || p.name} ${p.bottom - p.top} px`)
				.join(
					', ',
				)}; ${m.toOutput} px from the first credential to the bottom of Output, ${m.height} px to the last parameter`,
		);
		s.note(
			`fields before Output: ${m.credentials.length + before.length} (${m.credentials.length} credentials + ${before.length} parameters: ${before.map((p) => p.label).join(', ')})`,
		);
		const fewFields = s.check(
			`Create or Re-Run's panel shows at most ${PARAMETERS_BEFORE_OUTPUT_MAX} parameters before Output with its defaults (${before.length}; ${m.toOutput} px down to Output)`,
			before.length > 0 && before.length <= PARAMETERS_BEFORE_OUTPUT_MAX,
			before.map((p) => p.label),
		);
		const options = page
			.locator('[data-test-id="ndv"] [data-test-id="parameter-item"]', {
				has: page.locator('[data-test-id="collection-parameter-add"]'),
			})
			.filter({ hasText: /^\s*Options/ })
			.last();
		const first = await offered(page, options);
		const pass = s.check(
			`Options offers ${OFFERED.join(', ')}, and not Drop Points before Confirm Drops is on`,
			OFFERED.every((o) => first.includes(o)) && !first.includes('Drop Points'),
			first,
		);
		await addOption(page, options, 'Confirm Drops');
		const toggle = page.locator('[data-test-id="parameter-input-confirmDrops"]').first();
		await toggle.waitFor({ timeout: TIMEOUT });
		await toggle.click();
		const then = await offered(page, options);
		await addOption(page, options, 'Drop Points');
		const points = page.locator('[data-test-id="parameter-input-dropPoints"] input').first();
		await points.waitFor({ timeout: TIMEOUT });
		const value = await points.inputValue();
		await ui.screenshot(page, 'panel-options-drop-points');
		const drop = s.check(
			'with Confirm Drops on, Options offers Drop Points; added, it shows 5',
			then.includes('Drop Points') && value === '5',
			{ offered: then, value },
		);
		await toggle.click();
		const hidden = await points
			.waitFor({ state: 'hidden', timeout: 5_000 })
			.then(() => true)
			.catch(() => false);
		const off = s.check('turning Confirm Drops off hides Drop Points', hidden);
		return fewFields && pass && drop && off;
	});
}

/** The label of each credential select shown in the panel, in order: the text of the nearest `<label>` above it. */
export async function credentialLabels(page: Page): Promise<string[]> {
	const pane = page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').first();
	await pane
		.locator('[data-test-id="node-credentials-select"]')
		.first()
		.waitFor({ timeout: TIMEOUT });
	return await pane.evaluate((el: unknown) =>
		Array.from((el as DomElement).querySelectorAll('[data-test-id="node-credentials-select"]'))
			.filter((c) => c.getBoundingClientRect().height > 0)
			.map((c) => {
				let at: DomElement | null = c;
				while (at && !at.querySelector('label')) at = at.parentElement;
				return (at?.querySelector('label')?.textContent ?? '').trim();
			}),
	);
}
