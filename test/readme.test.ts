import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { PhpRank } from '../nodes/PhpRank/PhpRank.node';
import { PhpRankTrigger } from '../nodes/PhpRankTrigger/PhpRankTrigger.node';
import { read } from './repoFiles';

/*
 * README.md's first screen (everything above its first `## ` section) lists every operation of the
 * action node and every event of the trigger, as the nodes describe them, and its table of contents
 * names every `## ` section. Each list is written "Label (A, B, C)": a resource's name and its
 * operations, "Events" and the trigger's events, in the bullet that starts with the node's name.
 */

const readme = read('README.md');
const lines = readme.split('\n');

/** The `## ` headings, outside code blocks. */
function sections(): string[] {
	let inCode = false;
	return lines.flatMap((line) => {
		if (line.startsWith('```')) inCode = !inCode;
		return !inCode && line.startsWith('## ') ? [line.slice(3).trim()] : [];
	});
}

const firstSection = lines.findIndex((line) => line.startsWith('## '));
const firstScreen = lines.slice(0, firstSection);

/** The first screen's bullet about a node, its lines joined, without emphasis. */
function bulletOf(displayName: string): string {
	const bullets = firstScreen
		.join('\n')
		.split(/\n(?=- )/)
		.map((bullet) => bullet.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim());
	const bullet = bullets.find((text) => text.startsWith(`- ${displayName} node`));
	if (!bullet)
		throw new Error(`README.md's first screen has no bullet "- **${displayName}** node"`);
	return bullet;
}

/** The names a bullet lists after a label: "Report (Create, Get)" → ['Create', 'Get']. */
export function listed(bullet: string, label: string): string[] {
	const list = new RegExp(`\\b${label}s? \\(([^)]*)\\)`).exec(bullet)?.[1];
	return list === undefined ? [] : list.split(',').map((name) => name.trim());
}

function optionNames(property: INodeProperties | undefined): string[] {
	return ((property?.options ?? []) as INodePropertyOptions[]).map((option) => option.name);
}

function property(description: INodeTypeDescription, name: string): INodeProperties {
	const found = description.properties.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`${description.displayName} has no parameter "${name}"`);
	return found;
}

/** Each resource's display name and its operations' display names, from the node's description. */
function operationsByResource(description: INodeTypeDescription): Array<[string, string[]]> {
	const resources = property(description, 'resource').options as INodePropertyOptions[];
	return resources.map(({ name, value }) => [
		name,
		description.properties
			.filter((p) => p.name === 'operation')
			.filter((p) => p.displayOptions?.show?.resource?.includes(value))
			.flatMap(optionNames),
	]);
}

/** GitHub's anchor of a heading. */
export function anchor(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
}

const sorted = (names: string[]) => [...names].sort();

describe("README.md's first screen", () => {
	it("lists each resource of the phpRank node with every operation of the node's description", () => {
		const { description } = new PhpRank();
		const bullet = bulletOf(description.displayName);
		const resources = operationsByResource(description);
		expect(resources.length).toBeGreaterThan(1);
		for (const [resource, operations] of resources) {
			expect({ resource, operations: sorted(listed(bullet, resource)) }).toEqual({
				resource,
				operations: sorted(operations),
			});
		}
	});

	it("lists every event of the trigger's description", () => {
		const { description } = new PhpRankTrigger();
		const event = property(description, 'event');
		expect(sorted(listed(bulletOf(description.displayName), event.displayName))).toEqual(
			sorted(optionNames(event)),
		);
	});

	it('has a table of contents naming every section, in order, with its anchor', () => {
		const start = lines.indexOf('<!-- TOC -->');
		expect(start).toBeGreaterThan(-1);
		expect(start).toBeLessThan(firstScreen.length);
		const entries = lines.slice(start + 1, firstScreen.length).filter((l) => l.startsWith('- '));
		const toc = entries.map((entry) => /^- \[(.+)\]\(#(.+)\)$/.exec(entry)?.slice(1));
		expect(toc).toEqual(sections().map((heading) => [heading, anchor(heading)]));
	});

	it('reads lists and anchors as written', () => {
		const bullet = '- phpRank node: Report (Create, Get Many) and Project (Delete). Events (A, B)';
		expect(listed(bullet, 'Report')).toEqual(['Create', 'Get Many']);
		expect(listed(bullet, 'Project')).toEqual(['Delete']);
		expect(listed(bullet, 'Event')).toEqual(['A', 'B']);
		expect(listed(bullet, 'Widget')).toEqual([]);
		expect(anchor('Scaling (queue mode)')).toBe('scaling-queue-mode');
		expect(anchor('Rate limits, retries and request options')).toBe(
			'rate-limits-retries-and-request-options',
		);
	});
});
