import { isLastPage } from '../../nodes/PhpRank/transport/paging';
import { pageSizeFor } from '../../nodes/PhpRank/transport/routing';

describe('paging rules', () => {
	it.each([
		[1, 10],
		[10, 10],
		[11, 25],
		[26, 50],
		[51, 100],
		[101, 100],
		[Infinity, 100],
	])('a limit of %s asks for pages of %i', (limit, size) => {
		expect(pageSizeFor(limit)).toBe(size);
	});

	it('ends at the paginator’s last page (real instances)', () => {
		expect(isLastPage({ current_page: 2, last_page: 3 }, 2, 100, 100)).toBe(false);
		expect(isLastPage({ current_page: 3, last_page: 3 }, 3, 100, 100)).toBe(true);
		// per_page silently replaced by the instance default: meta still says where the end is.
		expect(isLastPage({ current_page: 1, last_page: 4, per_page: 10 }, 1, 10, 100)).toBe(false);
	});

	it('ends at a short or empty page when there is no paginator (seed-spec instances)', () => {
		expect(isLastPage({}, 1, 100, 100)).toBe(false);
		expect(isLastPage({}, 2, 99, 100)).toBe(true);
		expect(isLastPage({ current_page: 5, last_page: 9 }, 5, 0, 100)).toBe(true);
	});
});
