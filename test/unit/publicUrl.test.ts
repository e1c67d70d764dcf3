import { PUBLIC_URL_MAX_LENGTH, publicUrlProblem, withScheme } from '../../nodes/PhpRank/publicUrl';

describe('a URL from the public is checked before it reaches phpRank', () => {
	it.each([
		'https://example.com',
		'http://example.com/pricing?plan=pro#top',
		'https://www.example.co.uk:8443/a/b',
		'https://EXAMPLE.com.',
		'https://93.184.216.34/',
		'https://[2606:2800:220:1:248:1893:25c8:1946]/',
		'https://münchen.de/',
		'https://172.32.0.1/',
		'https://100.128.0.1/',
		'https://[::ffff:93.184.216.34]/',
	])('lets %s through', (url) => {
		expect(publicUrlProblem(url)).toBeUndefined();
	});

	it.each([
		['ftp://example.com/file', 'uses ftp:, not http or https'],
		['file:///etc/passwd', 'uses file:, not http or https'],
		['javascript:alert(1)', 'uses javascript:, not http or https'],
		['example.com', 'is not a web address'],
		['', 'is not a web address'],
		['https://user:secret@example.com/', 'carries a user name or password'],
	])('refuses %s: it %s', (url, problem) => {
		expect(publicUrlProblem(url)).toBe(problem);
	});

	it.each([
		['http://localhost/', 'a local network name (localhost)'],
		['http://LOCALHOST.:8080/', 'a local network name (localhost)'],
		['http://app.localhost/', 'a local network name (localhost)'],
		['http://printer.local/', 'a local network name (.local)'],
		['http://db.internal/', 'a local network name (.internal)'],
		['http://nas.home.arpa/', 'a local network name (.home.arpa)'],
		['http://intranet/', 'a name without a domain (a public site has one, e.g. example.com)'],
		['http://127.0.0.1/', 'a loopback address (127.0.0.0/8)'],
		['http://127.8.9.10:3000/', 'a loopback address (127.0.0.0/8)'],
		['http://2130706433/', 'a loopback address (127.0.0.0/8)'],
		['http://0x7f000001/', 'a loopback address (127.0.0.0/8)'],
		['http://0177.0.0.1/', 'a loopback address (127.0.0.0/8)'],
		['http://127.1/', 'a loopback address (127.0.0.0/8)'],
		['http://0.0.0.0/', 'an unspecified address (0.0.0.0/8)'],
		['http://10.1.2.3/', 'a private network address (10.0.0.0/8)'],
		['http://172.16.0.1/', 'a private network address (172.16.0.0/12)'],
		['http://172.31.255.255/', 'a private network address (172.16.0.0/12)'],
		['http://192.168.1.1/', 'a private network address (192.168.0.0/16)'],
		['http://169.254.169.254/latest/meta-data/', 'a link-local address (169.254.0.0/16)'],
		['http://100.64.0.1/', 'a carrier-grade NAT address (100.64.0.0/10)'],
		['http://100.127.255.255/', 'a carrier-grade NAT address (100.64.0.0/10)'],
		['http://224.0.0.1/', 'a multicast or reserved address (224.0.0.0/3)'],
		['http://255.255.255.255/', 'a multicast or reserved address (224.0.0.0/3)'],
		['http://[::1]/', 'a loopback address (::1)'],
		['http://[0:0:0:0:0:0:0:1]:80/', 'a loopback address (::1)'],
		['http://[::]/', 'an unspecified address (::)'],
		['http://[fc00::1]/', 'a unique local address (fc00::/7)'],
		['http://[fd12:3456::1]/', 'a unique local address (fc00::/7)'],
		['http://[fe80::1]/', 'a link-local address (fe80::/10)'],
		['http://[FEBF::1]/', 'a link-local address (fe80::/10)'],
		['http://[ff02::1]/', 'a multicast address (ff00::/8)'],
		[
			'http://[::ffff:127.0.0.1]/',
			'an IPv4 address inside IPv6 that is a loopback address (127.0.0.0/8)',
		],
		[
			'http://[::ffff:a9fe:a9fe]/',
			'an IPv4 address inside IPv6 that is a link-local address (169.254.0.0/16)',
		],
		[
			'http://[64:ff9b::10.0.0.1]/',
			'an IPv4 address inside IPv6 that is a private network address (10.0.0.0/8)',
		],
	])('refuses the local name or address in %s', (url, what) => {
		expect(publicUrlProblem(url)).toBe(`points to ${what}`);
	});

	it('refuses a URL over 2,000 characters and takes one of exactly 2,000', () => {
		const base = 'https://example.com/';
		const exact = base + 'a'.repeat(PUBLIC_URL_MAX_LENGTH - base.length);
		expect(publicUrlProblem(exact)).toBeUndefined();
		expect(publicUrlProblem(`${exact}b`)).toBe(
			'is 2001 characters long, more than the 2,000 allowed',
		);
	});
});

describe('a URL without its scheme gets https://; one with a scheme is left as it is', () => {
	it.each([
		['example.com/pricing', 'https://example.com/pricing'],
		['www.example.com', 'https://www.example.com'],
		['example.com:8080/a', 'https://example.com:8080/a'],
		['localhost:3000', 'https://localhost:3000'],
		['127.0.0.1:80', 'https://127.0.0.1:80'],
		['//example.com/a', 'https://example.com/a'],
		['https://example.com/a', 'https://example.com/a'],
		['HTTP://Example.com', 'HTTP://Example.com'],
		['ftp://example.com/file', 'ftp://example.com/file'],
		['mailto:seo@example.com', 'mailto:seo@example.com'],
		['javascript:alert(1)', 'javascript:alert(1)'],
		['', ''],
	])('%j → %j', (url, expected) => {
		expect(withScheme(url)).toBe(expected);
	});
});
