export {
	FOREIGN_BODIES,
	NO_API_PLAN_KEY,
	OTHER_USER_KEY,
	PhpRankServer,
	TEST_API_KEY,
	USER_IDS,
	cleanUrl,
} from './server';
export { CHECK_NAMES } from './analysis';
export { siteFigures, type SiteFigures } from './site';
export type * from './types';
