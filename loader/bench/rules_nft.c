// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: nft. Where nft is installed, the same
 * rules translated to nft syntax and loaded with `nft -f` into a table of a
 * new network namespace, timed, one load per rule count.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/rules.h"
#include "lang/rules_lang.h"
#include "lib/log.h"

/* Is an executable name in $PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char dir[4096];

	if (!path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(dir, sizeof(dir), "%.*s/%s", (int)n, n ? path : ".", name);
		if (access(dir, X_OK) == 0)
			return true;
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

/*
 * Run argv, its output thrown away but for the first line of its standard
 * error (in msg). The exit status, or -errno.
 */
static int run_cmd(char *const argv[], char *msg, size_t msglen)
{
	int pfd[2], status;
	char rest[256];
	ssize_t n;
	pid_t pid;

	msg[0] = 0;
	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	n = read(pfd[0], msg, msglen - 1);
	msg[n > 0 ? n : 0] = 0;
	msg[strcspn(msg, "\n")] = 0;
	while (read(pfd[0], rest, sizeof(rest)) > 0)
		; /* the rest of it */
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static const char *nft_ext(uint32_t type)
{
	switch (type) {
	case 0:
		return "hbh";
	case 43:
		return "rt";
	case 44:
		return "frag";
	case 60:
		return "dst";
	}
	return NULL;
}

/* A growing line of nft words. */
struct nft_line {
	char b[512];
	size_t n;
};

static void __attribute__((format(printf, 2, 3))) nft_put(struct nft_line *l, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (l->n >= sizeof(l->b))
		return;
	va_start(ap, fmt);
	k = vsnprintf(l->b + l->n, sizeof(l->b) - l->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n += k;
}

static void nft_addr(struct nft_line *l, const struct dynpf_match *m, const char *dir,
		     const uint8_t *a, uint8_t plen)
{
	if (m->family == 4) {
		nft_put(l, " ip %s %u.%u.%u.%u/%u", dir, a[0], a[1], a[2], a[3], plen);
		return;
	}
	nft_put(l, " ip6 %s ", dir);
	for (int i = 0; i < 16; i += 2)
		nft_put(l, "%s%x", i ? ":" : "", a[i] << 8 | a[i + 1]);
	nft_put(l, "/%u", plen);
}

/*
 * One generated rule in nft's words (in an inet table's chain). Only what
 * bench_rules_gen() produces is translated: -EINVAL for anything else.
 */
static int nft_rule(FILE *f, const struct dynpf_rule *r)
{
	const struct dynpf_match *m = &r->m;
	const char *l4 = m->proto == 6 ? "tcp" : m->proto == 17 ? "udp" : NULL;
	struct nft_line l = { .n = 0 };
	char rb[DYNPF_RANGE_TEXT_MAX]; /* a range's text */

	if (m->fields & ~(DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST | DYNPF_M_TTL | DYNPF_M_DSCP |
			  DYNPF_M_PROTO | DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS))
		return -EINVAL;
	if ((m->fields & DYNPF_M_FAMILY) && !(m->fields & (DYNPF_M_SRC | DYNPF_M_DST)))
		nft_put(&l, " meta nfproto ipv%u", m->family);
	if (m->fields & DYNPF_M_SRC)
		nft_addr(&l, m, "saddr", m->src, m->src_plen);
	if (m->fields & DYNPF_M_DST)
		nft_addr(&l, m, "daddr", m->dst, m->dst_plen);
	if (m->fields & DYNPF_M_TTL) {
		nft_put(&l, " %s", m->family == 6 ? "ip6 hoplimit" : "ip ttl");
		nft_put(&l, " %s", dynpf_range_text(rb, m->ttl_lo, m->ttl_hi));
	}
	if (m->fields & DYNPF_M_DSCP)
		nft_put(&l, " %s dscp %u", m->family == 6 ? "ip6" : "ip", m->dscp);
	if ((m->fields & DYNPF_M_PROTO) && !(m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT)) &&
	    !(m->fields & DYNPF_M_TCP_FLAGS))
		nft_put(&l, " meta l4proto %u", m->proto);
	if (m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT)) {
		if (!l4)
			return -EINVAL;
		if (m->fields & DYNPF_M_SPORT) {
			nft_put(&l, " %s sport", l4);
			nft_put(&l, " %s", dynpf_range_text(rb, m->sport_lo, m->sport_hi));
		}
		if (m->fields & DYNPF_M_DPORT) {
			nft_put(&l, " %s dport", l4);
			nft_put(&l, " %s", dynpf_range_text(rb, m->dport_lo, m->dport_hi));
		}
	}
	if (m->fields & DYNPF_M_TCP_FLAGS)
		nft_put(&l, " tcp flags & 0x%x == 0x%x", m->tcp_flags_mask, m->tcp_flags);
	for (uint32_t i = 0; i < m->ntlv; i++) {
		const struct dynpf_tlv_test *t = &m->tlv[i];
		const char *e = nft_ext(t->type);

		if (t->family == DYNPF_TT_EXT && e)
			nft_put(&l, " exthdr %s %s", e, t->neg ? "missing" : "exists");
		else if (t->family == DYNPF_TLV_TCP_OPT && t->type == 2)
			nft_put(&l, " tcp option maxseg %s", t->neg ? "missing" : "exists");
		else
			return -EINVAL;
	}
	for (uint32_t i = 0; i < m->nval; i++) {
		if (m->val[i].field != DYNPF_V_MSS)
			return -EINVAL;
		nft_put(&l, " tcp option maxseg size");
		nft_put(&l, " %s", dynpf_range_text(rb, m->val[i].lo, m->val[i].hi));
	}
	switch (r->action) {
	case DYNPF_ACT_PASS:
		nft_put(&l, " accept");
		break;
	case DYNPF_ACT_DROP:
		nft_put(&l, " drop");
		break;
	default:
		return -EINVAL;
	}
	if (l.n >= sizeof(l.b))
		return -E2BIG;
	fprintf(f, "\t\t%s\n", l.b + 1);
	return 0;
}

/* The set of n rules as an nft file: one table, one chain, in priority order. */
static int nft_write(const char *path, uint32_t n)
{
	struct dynpf_rule r;
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	fprintf(f, "table inet dynpf_bench {\n"
		   "\tchain input {\n"
		   "\t\ttype filter hook input priority 0; policy accept;\n");
	for (uint32_t i = 0; !err && i < n; i++) {
		bench_rules_gen(bench_rules_set_id(n, i), &r);
		err = nft_rule(f, &r);
	}
	fprintf(f, "\t}\n}\n");
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

void rb_nft(struct rb_ctx *x)
{
	struct bench_rules *res = x->res;
	char ns[64], path[] = "/tmp/dynpf-bench-nft-XXXXXX", msg[256];
	char *add[] = { "ip", "netns", "add", ns, NULL };
	char *del[] = { "ip", "netns", "delete", ns, NULL };
	char *load[] = { "ip", "netns", "exec", ns, "nft", "-f", path, NULL };
	char *flush[] = { "ip", "netns", "exec", ns, "nft", "flush", "ruleset", NULL };
	int fd, st;

	if (!in_path("nft")) {
		res->nft = NFT_ABSENT;
		snprintf(res->nft_msg, sizeof(res->nft_msg), "not installed, skipped");
		return;
	}
	res->nft = NFT_FAILED;
	if (!in_path("ip")) {
		snprintf(res->nft_msg, sizeof(res->nft_msg),
			 "ip (iproute2) not found: no network namespace, skipped");
		return;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		snprintf(res->nft_msg, sizeof(res->nft_msg), "cannot create a file: %s",
			 strerror(errno));
		return;
	}
	close(fd);
	snprintf(ns, sizeof(ns), "dynpf-bench-%d", (int)getpid());
	st = run_cmd(add, msg, sizeof(msg));
	if (st) {
		snprintf(res->nft_msg, sizeof(res->nft_msg), "ip netns add %s failed: %.150s", ns,
			 st < 0 ? strerror(-st) : msg);
		unlink(path);
		return;
	}
	for (size_t i = 0; i < x->cfg->ncounts; i++) {
		uint32_t n = x->cfg->counts[i];
		double t0;
		int err;

		if (!n)
			continue;
		err = nft_write(path, n);
		if (err) {
			snprintf(res->nft_msg, sizeof(res->nft_msg),
				 "cannot write the nft rules: %s", strerror(-err));
			goto out;
		}
		t0 = dynpf_now() * 1e3;
		st = run_cmd(load, msg, sizeof(msg));
		res->nft_ms[i] = dynpf_now() * 1e3 - t0;
		if (st) {
			snprintf(res->nft_msg, sizeof(res->nft_msg),
				 "nft -f of %u rules failed: %.180s", n,
				 st < 0 ? strerror(-st) : msg);
			goto out;
		}
		pr_info("bench: nft -f of %u rules: %.1f ms\n", n, res->nft_ms[i]);
		/* The next load starts from an empty namespace too. */
		st = run_cmd(flush, msg, sizeof(msg));
		if (st) {
			snprintf(res->nft_msg, sizeof(res->nft_msg),
				 "nft flush ruleset failed: %.180s", st < 0 ? strerror(-st) : msg);
			goto out;
		}
	}
	res->nft = NFT_OK;
	snprintf(res->nft_msg, sizeof(res->nft_msg), "ok");
out:
	/* Torn down whatever happened above. */
	st = run_cmd(del, msg, sizeof(msg));
	if (st)
		pr_warn("bench: ip netns delete %s failed: %s\n", ns, st < 0 ? strerror(-st) : msg);
	unlink(path);
}
