// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The rule language's words (docs/rules.md): a line read one word at a
 * time, numbers, ranges, MAC and IP addresses, interfaces, and the messages
 * that name where a word is wrong: "FILE:LINE:COLUMN: expected X after 'Y',
 * got 'Z'". Words are bytes: a NUL or a byte that is not ASCII is only ever
 * part of a word that is not a keyword, and is shown escaped (\xNN).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lang/lang.h"

void rp_init(struct rp *p, const char *src, unsigned long line, const char *s, size_t len,
	     struct dynpf_rule *r, struct dynpf_rule_err *err)
{
	memset(p, 0, sizeof(*p));
	p->src = src;
	p->line = line;
	p->s = s;
	p->len = len;
	p->r = r;
	p->err = err;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

void rp_next(struct rp *p)
{
	size_t start;

	if (p->cur.p)
		p->prev = p->cur;
	while (p->pos < p->len && blank(p->s[p->pos]))
		p->pos++;
	p->cur.col = p->pos + 1;
	if (p->pos >= p->len || p->s[p->pos] == '#') {
		/* Right after the last word: blanks and comments do not count. */
		p->cur.col = p->prev.p ? p->prev.col + p->prev.len : 1;
		p->cur.p = NULL;
		p->cur.len = 0;
		return;
	}
	start = p->pos;
	while (p->pos < p->len && !blank(p->s[p->pos]) && p->s[p->pos] != '#')
		p->pos++;
	p->cur.p = p->s + start;
	p->cur.len = p->pos - start;
}

struct word rp_peek(const struct rp *p)
{
	struct rp q = *p;

	rp_next(&q);
	return q.cur;
}

/* 'word' for a message: at most 32 bytes, anything not printable as \xNN. */
static const char *shown(const struct word *w, char *buf, size_t size)
{
	size_t n = 0, i;

	if (!w->p) {
		snprintf(buf, size, "end of line");
		return buf;
	}
	buf[n++] = '\'';
	for (i = 0; i < w->len && i < 32 && n + 8 < size; i++) {
		unsigned char c = w->p[i];

		if (c >= 0x20 && c < 0x7f)
			buf[n++] = c;
		else
			n += snprintf(buf + n, size - n, "\\x%02x", c);
	}
	if (i < w->len)
		n += snprintf(buf + n, size - n, "...");
	snprintf(buf + n, size - n, "'");
	return buf;
}

int rp_fail(struct rp *p, size_t col, const char *fmt, ...)
{
	struct dynpf_rule_err *e = p->err;
	va_list ap;
	int n;

	e->line = p->line;
	e->col = col;
	n = snprintf(e->msg, sizeof(e->msg), "%s:%lu:%zu: ", p->src, p->line, col);
	if (n < 0 || (size_t)n >= sizeof(e->msg))
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int rp_expected(struct rp *p, const char *what)
{
	char a[160], b[160];

	if (!p->prev.p)
		return rp_fail(p, p->cur.col, "expected %s, got %s", what,
			       shown(&p->cur, b, sizeof(b)));
	return rp_fail(p, p->cur.col, "expected %s after %s, got %s", what,
		       shown(&p->prev, a, sizeof(a)), shown(&p->cur, b, sizeof(b)));
}

int rp_expected_why(struct rp *p, const char *what, const char *why)
{
	char a[160], b[160];

	if (!p->prev.p)
		return rp_fail(p, p->cur.col, "expected %s, got %s (%s)", what,
			       shown(&p->cur, b, sizeof(b)), why);
	return rp_fail(p, p->cur.col, "expected %s after %s, got %s (%s)", what,
		       shown(&p->prev, a, sizeof(a)), shown(&p->cur, b, sizeof(b)), why);
}

int rp_need(struct rp *p, const char *what)
{
	rp_next(p);
	if (!p->cur.p)
		return rp_expected(p, what);
	return 0;
}

/* One hex digit's value, or -1 (lang.h). */
int lang_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool lang_num(const char *s, size_t n, __u32 max, __u32 *out)
{
	unsigned int base = 10;
	__u64 v = 0;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= n)
		return false;
	for (; i < n; i++) {
		int d = lang_hexval(s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return false;
		v = v * base + d;
		if (v > max)
			return false;
	}
	*out = (__u32)v;
	return true;
}

bool word_num(const struct word *w, __u32 max, __u32 *out)
{
	return w->p && lang_num(w->p, w->len, max, out);
}

/* RANGE: NUM or NUM-NUM. 0, -1 not a range within max, -2 low above high. */
static int range(const struct word *w, __u32 max, __u32 *lo, __u32 *hi)
{
	const char *dash = memchr(w->p, '-', w->len);

	if (!dash) {
		if (!lang_num(w->p, w->len, max, lo))
			return -1;
		*hi = *lo;
		return 0;
	}
	if (!lang_num(w->p, dash - w->p, max, lo) ||
	    !lang_num(dash + 1, w->len - (dash + 1 - w->p), max, hi))
		return -1;
	return *lo <= *hi ? 0 : -2;
}

int rp_need_range(struct rp *p, const char *what, __u32 max, __u32 *lo, __u32 *hi)
{
	int e = rp_need(p, what);

	if (e)
		return e;
	switch (range(&p->cur, max, lo, hi)) {
	case 0:
		return 0;
	case -2:
		return rp_expected_why(p, what, "the low end is above the high end");
	}
	return rp_expected(p, what);
}

/* The word as a C string, if it fits and holds no NUL. */
static bool cstr(const struct word *w, char *buf, size_t size)
{
	if (!w->p || w->len >= size || memchr(w->p, 0, w->len))
		return false;
	memcpy(buf, w->p, w->len);
	buf[w->len] = 0;
	return true;
}

int rp_need_ifindex(struct rp *p, const char *what, __u32 *out)
{
	char name[IF_NAMESIZE];
	int e = rp_need(p, what);

	if (e)
		return e;
	if (word_num(&p->cur, 0xffffffff, out)) {
		if (!*out)
			return rp_expected_why(p, what, "interface indexes start at 1");
		return 0;
	}
	if (!cstr(&p->cur, name, sizeof(name)) || !(*out = if_nametoindex(name)))
		return rp_expected_why(p, what, "no such interface");
	return 0;
}

bool word_mac(const struct word *w, __u8 *out)
{
	size_t i = 0;

	for (int b = 0; b < 6; b++) {
		int d, v = 0, k;

		for (k = 0; k < 2 && i < w->len && (d = lang_hexval(w->p[i])) >= 0; k++, i++)
			v = v * 16 + d;
		if (!k)
			return false;
		out[b] = v;
		if (b < 5) {
			if (i >= w->len || w->p[i] != ':')
				return false;
			i++;
		}
	}
	return i == w->len;
}

int rp_need_prefix(struct rp *p, int fam, const char *what, __u8 *addr, __u8 *plen)
{
	unsigned int maxp = fam == 4 ? 32 : 128, n = 0;
	char buf[INET6_ADDRSTRLEN + 8], net[INET6_ADDRSTRLEN], why[96];
	__u8 a[16] = {};
	const char *slash;
	size_t i;
	int e = rp_need(p, what);

	if (e)
		return e;
	if (!cstr(&p->cur, buf, sizeof(buf)))
		return rp_expected(p, what);
	slash = strchr(buf, '/');
	if (slash) {
		if (!slash[1] || strlen(slash + 1) > 3)
			return rp_expected(p, what);
		for (i = 1; slash[i]; i++) {
			if (slash[i] < '0' || slash[i] > '9')
				return rp_expected(p, what);
			n = n * 10 + (slash[i] - '0');
		}
		if (n > maxp)
			return rp_expected_why(p, what,
					       fam == 4 ? "a prefix length is 0-32"
							: "a prefix length is 0-128");
		buf[slash - buf] = 0;
	} else {
		n = maxp;
	}
	if (inet_pton(fam == 4 ? AF_INET : AF_INET6, buf, a) != 1)
		return rp_expected(p, what);
	for (i = 0; i < maxp / 8; i++) {
		unsigned int keep = n >= 8 * (i + 1) ? 8 : n > 8 * i ? n - 8 * i : 0;
		__u8 mask = keep ? (__u8)(0xff << (8 - keep)) : 0;

		if (a[i] & ~mask) {
			__u8 b[16];

			memcpy(b, a, sizeof(b));
			for (size_t j = i; j < 16; j++) {
				keep = n >= 8 * (j + 1) ? 8 : n > 8 * j ? n - 8 * j : 0;
				b[j] &= keep ? (__u8)(0xff << (8 - keep)) : 0;
			}
			inet_ntop(fam == 4 ? AF_INET : AF_INET6, b, net, sizeof(net));
			snprintf(why, sizeof(why), "host bits set: the prefix is %s/%u", net, n);
			return rp_expected_why(p, what, why);
		}
	}
	memcpy(addr, a, sizeof(a));
	*plen = n;
	return 0;
}
