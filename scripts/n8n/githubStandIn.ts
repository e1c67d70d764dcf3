/**
 * A stand-in for GitHub's REST API on loopback: the three calls n8n's GitHub node (1.1, n8n 2.41.1) makes for
 * issues, from the credential's Github Server: Create (POST /repos/:owner/:repo/issues), Edit (PATCH
 * /repos/:owner/:repo/issues/:number, its state) and Create Comment (POST /repos/:owner/:repo/issues/:number/comments).
 * Every call is recorded; any other, or an unknown issue, answers 404 as GitHub does.
 */
import { startHttp } from './catchers';
import { readBody } from '../../test/server/http';

export interface GithubCall {
	method: string;
	path: string;
	body: Record<string, unknown>;
	authorization?: string;
	status?: number;
}

export interface GithubIssue {
	number: number;
	title: string;
	body: string;
	labels: string[];
	state: string;
	comments: string[];
}

const ISSUES = /^\/repos\/[^/]+\/[^/]+\/issues(?:\/(\d+)(\/comments)?)?$/;

export async function startGithubStandIn() {
	const calls: GithubCall[] = [];
	const issues = new Map<number, GithubIssue>();
	const view = (issue: GithubIssue) => ({
		...issue,
		labels: issue.labels.map((name) => ({ name })),
		comments: issue.comments.length,
	});
	const answer = (
		method: string,
		path: string,
		body: Record<string, unknown>,
	): [number, object] => {
		const [, number, comments] = ISSUES.exec(path) ?? [];
		const issue = issues.get(Number(number));
		if (method === 'POST' && path.endsWith('/issues') && ISSUES.test(path)) {
			const made = {
				number: issues.size + 1,
				title: String(body.title),
				body: String(body.body),
				labels: (body.labels ?? []) as string[],
				state: 'open',
				comments: [],
			};
			issues.set(made.number, made);
			return [201, view(made)];
		}
		if (!issue) return [404, { message: 'Not Found' }];
		if (method === 'PATCH' && !comments) {
			issue.state = String(body.state ?? issue.state);
			return [200, view(issue)];
		}
		if (method === 'POST' && comments) {
			issue.comments.push(String(body.body));
			return [201, { id: issue.comments.length, body: body.body }];
		}
		return [404, { message: 'Not Found' }];
	};
	const server = await startHttp((req, res) => {
		void readBody(req).then((raw) => {
			const call = {
				method: req.method ?? '',
				path: req.url ?? '',
				body: (raw ? JSON.parse(raw) : {}) as Record<string, unknown>,
				authorization: req.headers.authorization,
			};
			const [status, json] = answer(call.method, call.path, call.body);
			calls.push({ ...call, status });
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(json));
		});
	});
	return { ...server, calls, issues };
}
