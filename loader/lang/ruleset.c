// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Rules and rule files (docs/rules.md, "The language"): a whole rule
 * ([id NUM] [prio NUM] matches action) with the checks across its matches,
 * its id when it has none, and one order for its tests; a rule from a
 * command line's words; settings; a rule file, read and parsed line by
 * line, into a rule set.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/lang.h"
#include "match.h"
#include "protocheck.h"

/* A rule file larger than this is refused (131071 rules of 500 bytes fit). */
#define DYNPF_RULES_FILE_MAX (64u << 20)

/* The lowest id at or above from not in ids; 0 when there is none. */
static __u32 lowest_free(const struct dynpf_rule_ids *ids, __u32 from)
{
	__u32 id = from ? from : 1;

	while (id < DYNPF_MAX_RULES) {
		if (ids->w[id / 64] == ~0ull) {
			id = (id / 64 + 1) * 64;
			continue;
		}
		if (!dynpf_rule_ids_test(ids, id))
			return id;
		id++;
	}
	return 0;
}

/* Sort the TLV and value tests: one rule, one representation. */
static void canonical(struct dynpf_match *m)
{
	for (unsigned int i = 1; i < m->ntlv && i < DYNPF_MATCH_TLVS; i++) {
		for (unsigned int j = i; j > 0; j--) {
			struct dynpf_tlv_test *a = &m->tlv[j - 1], *b = &m->tlv[j], t;

			if (!dynpf_tlv_test_before(b, a))
				break;
			t = *a;
			*a = *b;
			*b = t;
		}
	}
	for (unsigned int i = 1; i < m->nval && i < DYNPF_MATCH_VALS; i++) {
		for (unsigned int j = i; j > 0 && m->val[j - 1].field > m->val[j].field; j--) {
			struct dynpf_val_test t = m->val[j - 1];

			m->val[j - 1] = m->val[j];
			m->val[j] = t;
		}
	}
}

/* A whole rule: the line's words from the first. */
static int rule(struct rp *p, const struct dynpf_rule_ids *taken, __u32 hint)
{
	struct dynpf_rule *r = p->r;
	struct dynpf_match *m = &r->m;
	__u32 v;
	int e;

	memset(r, 0, sizeof(*r));
	rp_next(p);
	if (rp_is(p, "id")) {
		if ((e = rp_need(p, "a rule id (1-131071)")))
			return e;
		p->id_col = p->cur.col;
		if (!word_num(&p->cur, DYNPF_MAX_RULES - 1, &v) || !v)
			return rp_expected(p, "a rule id (1-131071)");
		r->id = v;
		p->has_id = true;
		rp_next(p);
	}
	if (rp_is(p, "prio")) {
		if ((e = rp_need(p, "a priority (0-4294967295)")))
			return e;
		if (!word_num(&p->cur, 0xffffffff, &r->prio))
			return rp_expected(p, "a priority (0-4294967295)");
		p->has_prio = true;
		rp_next(p);
	}
	for (;;) {
		if (!p->cur.p) {
			if (!p->prev.p)
				return rp_expected(p, "a rule");
			return rp_expected_why(p, "a match or an action",
					       "a rule ends with its action");
		}
		if (rp_is_action(p)) {
			if ((e = rp_action(p)))
				return e;
			rp_next(p);
			if (!rp_is(p, "timeout")) {
				if (p->cur.p)
					return rp_expected_why(p, "the end of the rule",
							       "the action comes last");
				break;
			}
			if ((e = rp_timeout(p)))
				return e;
			rp_next(p);
			if (p->cur.p)
				return rp_expected_why(p, "the end of the rule",
						       "a timeout comes last");
			break;
		}
		if (rp_is(p, "timeout"))
			return rp_expected_why(p, "a match or an action",
					       "a timeout comes after the action");
		if ((e = rp_match(p)))
			return e;
		rp_next(p);
	}
	/* A later fragment has no L4 header: no ports, no flags. */
	if (m->frag == DYNPF_MF_NONFIRST &&
	    (m->fields & (DYNPF_M_SPORT | DYNPF_M_DPORT | DYNPF_M_TCP_FLAGS))) {
		enum slot s = p->slot_col[SLOT_SPORT]   ? SLOT_SPORT
			      : p->slot_col[SLOT_DPORT] ? SLOT_DPORT
							: SLOT_TCP_FLAGS;
		size_t col = p->slot_col[s] > p->slot_col[SLOT_FRAG] ? p->slot_col[s]
								     : p->slot_col[SLOT_FRAG];

		return rp_fail(
			p, col,
			"conflict: 'frag later' at column %zu has no L4 header, '%s' at column %zu needs one",
			p->slot_col[SLOT_FRAG], p->slot_what[s], p->slot_col[s]);
	}
	canonical(m);
	if (!p->has_id) {
		r->id = taken ? lowest_free(taken, hint) : 1;
		if (!r->id)
			return rp_fail(p, 1, "no free rule id: every id from 1 to %u is taken",
				       DYNPF_MAX_RULES - 1);
	}
	if (!p->has_prio)
		r->prio = r->id;
	return 0;
}

/* Words joined with single blanks, as one line (malloc'd); NULL: no memory (err says so). */
static char *join_words(int nwords, char *const *words, size_t *n, struct dynpf_rule_err *err)
{
	size_t len = 0;
	char *s;

	*n = 0;
	for (int i = 0; i < nwords; i++)
		len += strlen(words[i]) + 1;
	s = malloc(len + 1);
	if (!s) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", DYNPF_RULE_CMDLINE);
		err->line = err->col = 0;
		return NULL;
	}
	for (int i = 0; i < nwords; i++) {
		size_t k = strlen(words[i]);

		if (i)
			s[(*n)++] = ' ';
		memcpy(s + *n, words[i], k);
		*n += k;
	}
	s[*n] = 0;
	return s;
}

/* The words as line 1 of the command line, in p (r its rule): the text, to free; NULL: no memory. */
static char *words_line(struct rp *p, int nwords, char *const *words, struct dynpf_rule *r,
			struct dynpf_rule_err *err)
{
	size_t n;
	char *s = join_words(nwords, words, &n, err);

	if (s)
		rp_init(p, DYNPF_RULE_CMDLINE, 1, s, n, r, err);
	return s;
}

int dynpf_rule_parse_words_p(struct dynpf_rule *r, int nwords, char *const *words,
			     const struct dynpf_rule_ids *taken,
			     const struct dynpf_proto_tab *protos, struct dynpf_rule_err *err)
{
	struct rp p;
	char *s = words_line(&p, nwords, words, r, err);
	int e;

	if (!s)
		return -ENOMEM;
	p.protos = protos;
	e = rule(&p, taken, 1);
	free(s);
	return e;
}

/* "rule del protocol NAME": NAME one of protos's, and nothing after it. */
static int proto_del(struct rp *p, struct dynpf_change *c, const struct dynpf_proto_tab *protos)
{
	int e, id;

	if ((e = rp_need(p, "a declared protocol's name")))
		return e;
	id = lang_proto_find(protos, &p->cur);
	if (id < 0)
		return rp_expected_why(p, "a declared protocol's name", "no such protocol");
	rp_next(p);
	if (p->cur.p)
		return rp_expected_why(p, "the end of the line", "rule del takes one protocol");
	c->kind = DYNPF_CHANGE_PROTO_DEL;
	c->proto = protos->d[id];
	return 0;
}

int dynpf_change_parse(struct dynpf_change *c, const char *src, unsigned long line, const char *s,
		       size_t len, const struct dynpf_rule_ids *taken,
		       const struct dynpf_proto_tab *protos, struct dynpf_rule_err *err)
{
	struct rp p;
	__u32 v;
	int e;

	memset(c, 0, sizeof(*c));
	rp_init(&p, src, line, s, len, &c->rule, err);
	p.protos = protos;
	rp_next(&p);
	if (!p.cur.p)
		return 0; /* blank, or a comment */
	if (!rp_is(&p, "rule"))
		return rp_expected(&p, "'rule add' or 'rule del'");
	rp_next(&p);
	if (rp_is(&p, "add")) {
		struct word w = rp_peek(&p);

		if (word_eq(&w, "protocol")) {
			rp_next(&p);
			e = lang_proto(&p, &c->proto, protos, NULL);
			if (!e)
				c->kind = DYNPF_CHANGE_PROTO_ADD;
			return e;
		}
		e = rule(&p, taken, 1);
		if (!e)
			c->kind = DYNPF_CHANGE_ADD;
		return e;
	}
	if (!rp_is(&p, "del"))
		return rp_expected(&p, "add or del");
	if ((e = rp_need(&p, "a rule id (1-131071) or 'protocol'")))
		return e;
	if (rp_is(&p, "protocol"))
		return proto_del(&p, c, protos);
	if (!word_num(&p.cur, DYNPF_MAX_RULES - 1, &v) || !v)
		return rp_expected(&p, "a rule id (1-131071) or 'protocol'");
	rp_next(&p);
	if (p.cur.p)
		return rp_expected_why(&p, "the end of the line", "rule del takes one id");
	c->kind = DYNPF_CHANGE_DEL;
	c->rule.id = v;
	return 0;
}

int dynpf_rule_parse_words(struct dynpf_rule *r, int nwords, char *const *words,
			   const struct dynpf_rule_ids *taken, struct dynpf_rule_err *err)
{
	return dynpf_rule_parse_words_p(r, nwords, words, taken, NULL, err);
}

/* A declaration: the line's words from the first ("protocol"), to its end. */
static int declaration(struct rp *p, struct dynpf_proto_desc *d,
		       const struct dynpf_proto_tab *known, const unsigned long *lines)
{
	rp_next(p);
	if (!rp_is(p, "protocol"))
		return rp_expected(p, "'protocol'");
	return lang_proto(p, d, known, lines);
}

int dynpf_proto_parse_words(struct dynpf_proto_desc *d, int nwords, char *const *words,
			    const struct dynpf_proto_tab *known, struct dynpf_rule_err *err)
{
	struct dynpf_rule r;
	struct rp p;
	char *s = words_line(&p, nwords, words, &r, err);
	int e;

	if (!s)
		return -ENOMEM;
	e = declaration(&p, d, known, NULL);
	free(s);
	return e;
}

void dynpf_ruleset_init(struct dynpf_ruleset *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->free_hint = 1;
}

void dynpf_ruleset_free(struct dynpf_ruleset *rs)
{
	free(rs->rules);
	free(rs->lines);
	dynpf_ruleset_init(rs);
}

/* set KEY VALUE */
static int setting(struct rp *p, struct dynpf_ruleset *rs)
{
	const struct name_val *key;
	__u64 v;
	int e;

	if ((e = rp_need(p, "default-action or pass-arp-nd")))
		return e;
	key = nv_lookup(lang_settings, &p->cur);
	if (!key)
		return rp_expected(p, "default-action or pass-arp-nd");
	if (key->val == DYNPF_SET_DEFAULT_ACTION) {
		if ((e = rp_need(p, "pass or drop")))
			return e;
		if (rp_is(p, "pass"))
			v = DYNPF_ACT_PASS;
		else if (rp_is(p, "drop"))
			v = DYNPF_ACT_DROP;
		else
			return rp_expected(p, "pass or drop");
	} else {
		if ((e = rp_need(p, "on or off")))
			return e;
		if (rp_is(p, "on"))
			v = 1;
		else if (rp_is(p, "off"))
			v = 0;
		else
			return rp_expected(p, "on or off");
	}
	rp_next(p);
	if (p->cur.p)
		return rp_expected(p, "the end of the line");
	if (rs->set_seen & (1u << key->val))
		return rp_fail(p, 1, "duplicate setting: '%s' is already set on line %lu",
			       key->name, rs->set_line[key->val]);
	rs->set_seen |= 1u << key->val;
	rs->set[key->val] = v;
	rs->set_line[key->val] = p->line;
	return 0;
}

static int ruleset_add(struct dynpf_ruleset *rs, const struct dynpf_rule *r, unsigned long line)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct dynpf_rule *nr = realloc(rs->rules, cap * sizeof(*nr));
		unsigned long *nl;

		if (!nr)
			return -ENOMEM;
		rs->rules = nr;
		nl = realloc(rs->lines, cap * sizeof(*nl));
		if (!nl)
			return -ENOMEM;
		rs->lines = nl;
		rs->cap = cap;
	}
	rs->rules[rs->n] = *r;
	rs->lines[rs->n++] = line;
	dynpf_rule_ids_set(&rs->ids, r->id);
	return 0;
}

static int parse_line(struct dynpf_ruleset *rs, const char *name, unsigned long lineno,
		      const char *s, size_t len, struct dynpf_rule_err *err)
{
	struct dynpf_rule r;
	struct rp p;
	struct word w;
	int e;

	rp_init(&p, name, lineno, s, len, &r, err);
	w = rp_peek(&p);
	if (!w.p)
		return 0;
	if (word_eq(&w, "set")) {
		rp_next(&p);
		return setting(&p, rs);
	}
	if (word_eq(&w, "protocol")) {
		struct dynpf_proto_desc d;

		if ((e = declaration(&p, &d, &rs->protos, rs->proto_line)))
			return e;
		dynpf_proto_tab_set(&rs->protos, &d);
		rs->proto_line[d.id] = lineno;
		return 0;
	}
	p.protos = &rs->protos;
	if ((e = rule(&p, &rs->ids, rs->free_hint)))
		return e;
	if (p.has_id && dynpf_rule_ids_test(&rs->ids, r.id)) {
		size_t i;

		for (i = 0; i < rs->n && rs->rules[i].id != r.id; i++)
			;
		return rp_fail(&p, p.id_col, "duplicate rule id %u: the rule on line %lu has it",
			       r.id, i < rs->n ? rs->lines[i] : 0);
	}
	if (!p.has_id)
		rs->free_hint = r.id;
	if ((e = ruleset_add(rs, &r, lineno))) {
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", name);
		err->line = err->col = 0;
	}
	return e;
}

int dynpf_ruleset_parse(struct dynpf_ruleset *rs, const char *name, const char *text, size_t len,
			struct dynpf_rule_err *err)
{
	unsigned long lineno = 0;
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;
		int e;

		/* CRLF line ends. */
		if (n && text[pos + n - 1] == '\r')
			n--;
		if ((e = parse_line(rs, name, ++lineno, text + pos, n, err)))
			return e;
		pos = end + 1;
	}
	return 0;
}

int dynpf_ruleset_load(struct dynpf_ruleset *rs, const char *path, struct dynpf_rule_err *err)
{
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdin : fopen(path, "r");
	const char *name = std ? "<stdin>" : path;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int e = 0;

	err->line = err->col = 0;
	if (!f) {
		e = -errno;
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return e;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb;

			if (cap >= DYNPF_RULES_FILE_MAX) {
				snprintf(err->msg, sizeof(err->msg), "%s: larger than %u MiB", name,
					 DYNPF_RULES_FILE_MAX >> 20);
				e = -EFBIG;
				break;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err->msg, sizeof(err->msg), "%s: out of memory", name);
				e = -ENOMEM;
				break;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n)
			continue;
		if (ferror(f)) {
			e = -EIO;
			snprintf(err->msg, sizeof(err->msg), "%s: %s", name, strerror(errno));
		}
		break;
	}
	if (!std)
		fclose(f);
	if (!e)
		e = dynpf_ruleset_parse(rs, name, buf, len, err);
	free(buf);
	return e;
}

/* Append line and a newline to the text being made; -1: no memory. */
static int text_line(char **text, size_t *len, size_t *cap, const char *line, size_t n)
{
	if (*len + n + 2 > *cap) {
		size_t ncap = 2 * *cap + n + 2;
		char *t = realloc(*text, ncap);

		if (!t)
			return -1;
		*text = t;
		*cap = ncap;
	}
	memcpy(*text + *len, line, n);
	*len += n;
	(*text)[(*len)++] = '\n';
	(*text)[*len] = 0;
	return 0;
}

char *dynpf_ruleset_text(const struct dynpf_ruleset *rs, bool lifetimes, size_t *len)
{
	char line[DYNPF_RULE_TEXT_MAX];
	size_t cap = 4096;
	char *text = malloc(cap);
	int n;

	*len = 0;
	if (!text)
		return NULL;
	text[0] = 0;
	for (unsigned int i = 0; i < DYNPF_MAX_PROTOS; i++) {
		if (!rs->protos.key[i])
			continue;
		n = dynpf_proto_format(&rs->protos.d[i], line, sizeof(line));
		if (text_line(&text, len, &cap, line, n))
			goto nomem;
	}
	for (unsigned int k = 1; k < DYNPF_SET_MAX; k++) {
		if (!(rs->set_seen & (1u << k)))
			continue;
		n = dynpf_setting_format(k, rs->set[k], line, sizeof(line));
		if (text_line(&text, len, &cap, line, n))
			goto nomem;
	}
	for (size_t i = 0; i < rs->n; i++) {
		struct dynpf_rule r = rs->rules[i];

		if (!lifetimes)
			r.expires = 0;
		n = dynpf_rule_format_p(&r, &rs->protos, line, sizeof(line));
		if (text_line(&text, len, &cap, line, n))
			goto nomem;
	}
	return text;
nomem:
	free(text);
	return NULL;
}
