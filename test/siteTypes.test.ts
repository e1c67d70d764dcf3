import { SITE_FLATTENERS } from '../nodes/PhpRank/site/text';
import { type Flatteners, flatten, type SiteSummary } from '../nodes/PhpRank/site/types';

/*
 * The site item is a declared type from its figures to its output: a misspelled field, or a list
 * field Simplify has no flattener for, fails `npm run typecheck` (CI runs it). The expectations
 * below marked @ts-expect-error are the proof: were they accepted, tsc would fail on the marker.
 */

describe('the site item as a declared type', () => {
	it('refuses a misspelled field and a list field without its flattener (tsc)', () => {
		// @ts-expect-error: `averge_score` is not a field of the site item
		const misspelled: Partial<SiteSummary> = { averge_score: 1 };
		// @ts-expect-error: every list field needs a flattener; top_issues has none here
		const partial: Flatteners<SiteSummary> = { ...SITE_FLATTENERS, top_issues: undefined };
		expect(misspelled).toBeDefined();
		expect(partial).toBeDefined();
	});

	it('Simplify flattens each list by its own flattener and leaves other fields as they are', () => {
		const flat = flatten(
			{
				project: 'shop.example.com',
				pages: 2,
				top_issues: ['title (high) on 1 of 2 pages', 'robots (medium) on 2 of 2 pages'],
				failed_pages: [{ url: 'https://shop.example.com/x', reason: 'HTTP 500' }],
			},
			SITE_FLATTENERS,
		);
		expect(flat).toEqual({
			project: 'shop.example.com',
			pages: 2,
			top_issues: 'title (high) on 1 of 2 pages; robots (medium) on 2 of 2 pages',
			failed_pages: 'https://shop.example.com/x (HTTP 500)',
		});
	});
});
