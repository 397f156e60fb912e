// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf rules SUBCOMMAND: rule files (docs/rules.md). A small table of
 * subcommands, each with its own options:
 *   check FILE   parse, print the normalized rule set (or JSON with -j)
 *   load FILE    replace the daemon's rule set with FILE, as one transaction
 *   save [FILE]  the daemon's rule set, in a form that loads back
 *   apply FILE   a stream of changes (rule add ..., rule del ...), each line
 *                (or blank-line-separated batch) a transaction, each acked
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli/client.h"
#include "cli/cmds.h"
#include "lib/log.h"
#include "lib/util.h"
#include "lang/rules_lang.h"

#define add(o, k, v) json_object_object_add(o, k, v)
#define jint(v) json_object_new_int64((int64_t)(v))
#define jstr(v) json_object_new_string(v)

static json_object *jname(const char *name)
{
	return name ? jstr(name) : NULL;
}

static json_object *jmac(const __u8 *m)
{
	char s[18];

	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
	return jstr(s);
}

/* An address of the rule's family; null without one. */
static json_object *jaddr(unsigned int family, const __u8 *a)
{
	char s[INET6_ADDRSTRLEN];

	if ((family != 4 && family != 6) ||
	    !inet_ntop(family == 4 ? AF_INET : AF_INET6, a, s, sizeof(s)))
		return NULL;
	return jstr(s);
}

/* A declared protocol's family: its name; NULL for the others. */
static const char *decl_name(const struct dynpf_proto_tab *protos, __u32 family)
{
	__u32 id = family - DYNPF_TLV_NFAM;

	return family >= DYNPF_TLV_NFAM && id < DYNPF_MAX_PROTOS && protos->key[id]
		       ? protos->d[id].name
		       : NULL;
}

/* Every field of struct dynpf_rule and its match, by its C name. */
static json_object *rule_json(const struct dynpf_rule *r, unsigned long line,
			      const struct dynpf_proto_tab *protos)
{
	const struct dynpf_match *m = &r->m;
	json_object *o = json_object_new_object(), *mo = json_object_new_object();
	json_object *fields = json_object_new_array(), *tlv = json_object_new_array();
	json_object *val = json_object_new_array(), *data = json_object_new_array();
	char text[DYNPF_RULE_TEXT_MAX];

	dynpf_rule_format_p(r, protos, text, sizeof(text));
	add(o, "line", jint(line));
	add(o, "text", jstr(text));
	add(o, "id", jint(r->id));
	add(o, "prio", jint(r->prio));
	add(o, "action", jname(dynpf_action_name(r->action)));
	add(o, "arg", jint(r->arg));
	add(o, "burst", jint(r->burst));
	add(o, "sample_len", jint(r->sample_len));
	add(o, "sample_rate", jint(r->sample_rate));
	/* The seconds left of its lifetime, rounded up; null: none. */
	add(o, "timeout", r->expires ? jint(dynpf_rule_timeout_left(r, dynpf_lang_now())) : NULL);
	for (__u32 bit = 1; bit & DYNPF_M_ALL; bit <<= 1)
		if (m->fields & bit)
			json_object_array_add(fields, jname(dynpf_match_field_name(bit)));
	add(mo, "fields", fields);
	add(mo, "stack", jint(m->stack));
	add(mo, "ifindex", jint(m->ifindex));
	add(mo, "eth_src", jmac(m->eth_src));
	add(mo, "eth_dst", jmac(m->eth_dst));
	add(mo, "ethertype", jint(m->ethertype));
	add(mo, "vlan", jint(m->vlan));
	add(mo, "family", jint(m->family));
	add(mo, "src", jaddr(m->family, m->src));
	add(mo, "src_plen", jint(m->src_plen));
	add(mo, "dst", jaddr(m->family, m->dst));
	add(mo, "dst_plen", jint(m->dst_plen));
	add(mo, "proto", jint(m->proto));
	add(mo, "frag", jname(dynpf_frag_name(m->frag)));
	add(mo, "ttl_lo", jint(m->ttl_lo));
	add(mo, "ttl_hi", jint(m->ttl_hi));
	add(mo, "dscp", jint(m->dscp));
	add(mo, "sport_lo", jint(m->sport_lo));
	add(mo, "sport_hi", jint(m->sport_hi));
	add(mo, "dport_lo", jint(m->dport_lo));
	add(mo, "dport_hi", jint(m->dport_hi));
	add(mo, "tcp_flags", jint(m->tcp_flags));
	add(mo, "tcp_flags_mask", jint(m->tcp_flags_mask));
	add(mo, "error", jname(dynpf_match_error_name(m->error)));
	for (unsigned int i = 0; i < m->ntlv && i < DYNPF_MATCH_TLVS; i++) {
		json_object *t = json_object_new_object();

		add(t, "family",
		    jname(decl_name(protos, m->tlv[i].family)
				  ?: dynpf_tlv_test_family_name(m->tlv[i].family)));
		add(t, "type", jint(m->tlv[i].type));
		add(t, "neg", json_object_new_boolean(m->tlv[i].neg));
		json_object_array_add(tlv, t);
	}
	add(mo, "tlv", tlv);
	for (unsigned int i = 0; i < m->nval && i < DYNPF_MATCH_VALS; i++) {
		json_object *t = json_object_new_object();

		add(t, "field", jname(dynpf_val_name(m->val[i].field)));
		add(t, "lo", jint(m->val[i].lo));
		add(t, "hi", jint(m->val[i].hi));
		json_object_array_add(val, t);
	}
	add(mo, "val", val);
	for (unsigned int i = 0; i < m->ndata && i < DYNPF_MATCH_DATA; i++) {
		const struct dynpf_data_test *d = &m->data[i];
		json_object *t = json_object_new_object();
		char hex[2 * DYNPF_DATA_MAX + 3];

		add(t, "where",
		    jname(decl_name(protos, d->where) ?: dynpf_data_where_name(d->where)));
		add(t, "type", jint(d->type));
		add(t, "off", jint(d->off));
		add(t, "len", jint(d->len));
		add(t, "value", jstr(dynpf_data_hex(d->val, d->len, hex)));
		add(t, "mask", jstr(dynpf_data_hex(d->mask, d->len, hex)));
		json_object_array_add(data, t);
	}
	add(mo, "data", data);
	add(o, "match", mo);
	return o;
}

static void check_print_json(const struct dynpf_ruleset *rs)
{
	json_object *top = json_object_new_object(), *set = json_object_new_object();
	json_object *rules = json_object_new_array(), *protos = json_object_new_array();

	for (unsigned int k = 1; k < DYNPF_SET_MAX; k++)
		if (rs->set_seen & (1u << k))
			add(set, dynpf_setting_name(k),
			    jname(dynpf_setting_value_name(k, rs->set[k])));
	add(top, "settings", set);
	for (unsigned int i = 0; i < DYNPF_MAX_PROTOS; i++) {
		char text[DYNPF_RULE_TEXT_MAX];
		json_object *d;

		if (!rs->protos.key[i])
			continue;
		d = json_object_new_object();
		dynpf_proto_format(&rs->protos.d[i], text, sizeof(text));
		add(d, "id", jint(i));
		add(d, "name", jstr(rs->protos.d[i].name));
		add(d, "line", jint(rs->proto_line[i]));
		add(d, "text", jstr(text));
		json_object_array_add(protos, d);
	}
	add(top, "protocols", protos);
	for (size_t i = 0; i < rs->n; i++)
		json_object_array_add(rules, rule_json(&rs->rules[i], rs->lines[i], &rs->protos));
	add(top, "rules", rules);
	printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
	json_object_put(top);
}

static void check_print_text(const struct dynpf_ruleset *rs)
{
	size_t len;
	char *text = dynpf_ruleset_text(rs, true, &len);

	if (!text) {
		p_err("rules check: out of memory");
		return;
	}
	fwrite(text, 1, len, stdout);
	free(text);
}

static void check_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf rules check FILE [OPTIONS]\n"
		"\n"
		"Parses the rule file FILE (\"-\": standard input) with the rule language of\n"
		"docs/rules.md and prints the rule set normalized, protocol declarations\n"
		"first, then settings, then one rule per line with its id and priority: a\n"
		"file that loads to the same rules.\n"
		"The first error is printed as FILE:LINE:COLUMN: what was expected.\n"
		"\n"
		"  -j, --json        one JSON object: \"settings\", \"protocols\", and \"rules\"\n"
		"                    with every field of each rule (as the global -j)\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0 valid, 1 an error in the rules, 2 bad invocation or an\n"
		"unreadable file.\n");
}

static int rules_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	int c, e;

	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			dynpf_json = true;
			break;
		case 'h':
			check_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			return dynpf_try_help("rules check");
		}
	}
	if (optind >= argc) {
		p_err("rules check: missing the rule file");
		return DYNPF_EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		p_err("rules check: unexpected argument '%s'", argv[optind + 1]);
		return DYNPF_EXIT_USAGE;
	}
	dynpf_ruleset_init(&rs);
	e = dynpf_ruleset_load(&rs, argv[optind], &err);
	if (e) {
		p_err("%s", err.msg);
		dynpf_ruleset_free(&rs);
		/* An error in the rules is exit 1; a file that cannot be read, 2. */
		return e == -EINVAL ? DYNPF_EXIT_DIFF : DYNPF_EXIT_USAGE;
	}
	if (dynpf_json)
		check_print_json(&rs);
	else
		check_print_text(&rs);
	dynpf_ruleset_free(&rs);
	return DYNPF_EXIT_OK;
}

static void rules_loaded(json_object *rep, const void *arg)
{
	(void)arg;
	printf("%lld rules loaded, generation %lld\n",
	       (long long)json_object_get_int64(jget(rep, "rules")),
	       (long long)json_object_get_int64(jget(rep, "generation")));
}

/* dynpf rules load FILE: the file replaces the daemon's rule set, at once. */
static int rules_load(int argc, char **argv)
{
	json_object *req;
	char *text;
	size_t len = 0, cap = 1 << 16;
	FILE *f;

	if (argc != 2 || dynpf_is_help(argv[1])) {
		printf("Usage: dynpf rules load FILE\n\nReplace the daemon's rule set with FILE "
		       "(\"-\": standard input), as one\ntransaction: any error, and nothing "
		       "changes.\n");
		return argc == 2 ? DYNPF_EXIT_OK : DYNPF_EXIT_USAGE;
	}
	f = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!f) {
		p_err("%s: %s", argv[1], strerror(errno));
		return DYNPF_EXIT_USAGE;
	}
	text = malloc(cap);
	while (text) {
		size_t n = fread(text + len, 1, cap - len, f);

		len += n;
		if (len < cap)
			break;
		if (cap >= DYNPF_REQUEST_MAX / 2) {
			free(text);
			text = NULL;
			p_err("%s: larger than %d bytes", argv[1], DYNPF_REQUEST_MAX / 2);
			break;
		}
		text = realloc(text, cap *= 2);
	}
	if (f != stdin)
		fclose(f);
	if (!text)
		return DYNPF_EXIT_USAGE;
	req = dynpf_client_request("rules-load");
	json_object_object_add(req, "text", json_object_new_string_len(text, len));
	json_object_object_add(req, "name", json_object_new_string(argv[1]));
	free(text);
	return dynpf_client_run(req, rules_loaded, NULL);
}

/* dynpf rules save [FILE]: the active rule set, in a form that loads back. */
static int rules_save(int argc, char **argv)
{
	json_object *rep;
	FILE *f = stdout;

	if (argc > 2 || (argc == 2 && dynpf_is_help(argv[1]))) {
		/* --help: the usage on stdout, exit 0; more words: on stderr, 2. */
		FILE *out = argc == 2 ? stdout : stderr;

		fprintf(out,
			"Usage: dynpf rules save [FILE]\n\nThe daemon's active rule set "
			"(settings, then every rule normalized):\nwhat `dynpf rules load` loads "
			"back to the same set.\n");
		return argc == 2 ? DYNPF_EXIT_OK : DYNPF_EXIT_USAGE;
	}
	rep = dynpf_client_call(dynpf_client_socket(), dynpf_client_request("rules-save"));
	if (!dynpf_client_ok(rep)) {
		json_object_put(rep);
		return DYNPF_EXIT_USAGE;
	}
	if (argc == 2 && !(f = fopen(argv[1], "w"))) {
		p_err("%s: %s", argv[1], strerror(errno));
		json_object_put(rep);
		return DYNPF_EXIT_USAGE;
	}
	fputs(json_object_get_string(jget(rep, "text")), f);
	if (f != stdout && fclose(f)) {
		p_err("%s: %s", argv[1], strerror(errno));
		json_object_put(rep);
		return DYNPF_EXIT_USAGE;
	}
	json_object_put(rep);
	return DYNPF_EXIT_OK;
}

/* ---- rules apply ------------------------------------------------------------ */

#define APPLY_CHUNK_LINES 4096      /* lines of one request, at most, a line each */
#define APPLY_BATCH_LINES 65536     /* with --batch: one batch at most (DYNPF_REQ_MAX_LINES) */
#define APPLY_CHUNK_BYTES (1 << 20) /* bytes of one request (at most 4 MB as JSON) */
#define APPLY_IDLE_MS 4000          /* the daemon drops a client quiet for 5 s */

/* The input: bytes read and not yet sent, and where they are in the file. */
struct apply_in {
	int fd;
	char *buf;
	size_t len, cap;
	bool eof;
	unsigned long line; /* the line number of buf's first line */
};

/* Read what there is (blocking when block and nothing is there). -errno on error. */
static int apply_read(struct apply_in *in, bool block)
{
	for (;;) {
		struct pollfd p = { .fd = in->fd, .events = POLLIN };
		ssize_t n;

		if (in->eof || in->len >= APPLY_CHUNK_BYTES)
			return 0;
		if (!block && poll(&p, 1, 0) <= 0)
			return 0;
		if (in->cap - in->len < 65536) {
			char *t = realloc(in->buf, in->cap = in->cap ? 2 * in->cap : 131072);

			if (!t)
				return -ENOMEM;
			in->buf = t;
		}
		n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			in->eof = true;
		in->len += n;
		block = false;
	}
}

/*
 * The whole lines to send now: every complete line there is (per line), or
 * up to the last blank line (batch; everything at the end of the input).
 * Their bytes, 0 when more input is needed.
 */
static size_t apply_take(const struct apply_in *in, bool batch, size_t *nlines)
{
	size_t end = 0, n = 0, cut = 0, cut_n = 0,
	       max = batch ? APPLY_BATCH_LINES : APPLY_CHUNK_LINES;

	for (size_t i = 0; i < in->len && n < max; i++) {
		size_t start = end;

		if (in->buf[i] != '\n')
			continue;
		end = i + 1;
		n++;
		if (!batch || strspn(in->buf + start, " \t\r") == i - start) {
			cut = end;
			cut_n = n;
		}
	}
	if (in->eof && n < max) { /* everything, the last line too */
		cut = in->len;
		cut_n = n + (end < in->len);
	}
	*nlines = cut_n;
	return cut;
}

/* One result of the daemon's, as a line on stdout. */
static void apply_print(json_object *r, const char *name)
{
	long long line = json_object_get_int64(jget(r, "line"));
	long long last = json_object_get_int64(jget(r, "last_line"));
	json_object *add = jget(r, "added"), *del = jget(r, "deleted");
	char where[64];

	if (dynpf_json) {
		printf("%s\n", json_object_to_json_string_ext(r, JSON_C_TO_STRING_PLAIN));
		return;
	}
	if (!json_object_get_boolean(jget(r, "ok"))) {
		printf("error %s\n", json_object_get_string(jget(r, "error")));
		return;
	}
	if (last > line)
		snprintf(where, sizeof(where), "%lld-%lld", line, last);
	else
		snprintf(where, sizeof(where), "%lld", line);
	printf("ok %s:%s:", name, where);
	for (int k = 0; k < 2; k++) {
		json_object *ids = k ? del : add;
		size_t n = json_object_array_length(ids);

		if (!n)
			continue;
		printf(" rule%s", n > 1 ? "s" : "");
		for (size_t i = 0; i < n; i++)
			printf("%s %lld", i ? "," : "",
			       (long long)json_object_get_int64(json_object_array_get_idx(ids, i)));
		printf(" %s,", k ? "deleted" : "added");
	}
	for (int k = 0; k < 2; k++) {
		json_object *names = jget(r, k ? "undeclared" : "declared");
		size_t n = names ? json_object_array_length(names) : 0;

		if (!n)
			continue;
		printf(" protocol%s", n > 1 ? "s" : "");
		for (size_t i = 0; i < n; i++)
			printf("%s %s", i ? "," : "",
			       json_object_get_string(json_object_array_get_idx(names, i)));
		printf(" %s,", k ? "deleted" : "declared");
	}
	printf(" generation %lld\n", (long long)json_object_get_int64(jget(r, "generation")));
}

static void apply_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf rules apply [--batch] FILE\n"
		"\n"
		"Applies a stream of rule changes to the daemon's rule set, read from FILE\n"
		"(\"-\": standard input) as it comes, one change a line in the words of the CLI:\n"
		"\n"
		"    rule add RULE      a rule, as after `dynpf rule add` (timeout included)\n"
		"    rule del ID        delete rule ID\n"
		"    rule add protocol NAME ...\n"
		"                       declare a protocol (a `protocol` line of a rule file)\n"
		"    rule del protocol NAME\n"
		"                       delete a declared protocol (no rule may test it)\n"
		"\n"
		"Each line is a transaction of its own; with --batch, each run of lines up to\n"
		"a blank line is one. Blank lines and # comments are otherwise ignored. Each\n"
		"transaction is acknowledged on standard output once it is in force, one\n"
		"line each, naming its input line: \"ok FILE:LINE: rule 12 added, generation\n"
		"G\" or \"error FILE:LINE[:COLUMN]: why\" (it changed nothing); the others go on.\n"
		"\n"
		"  -b, --batch       blank-line-separated batches are the transactions\n"
		"  -j, --json        one JSON object a transaction (as the global -j)\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0 every transaction applied, 1 one or more refused, 2 bad\n"
		"invocation, unreadable input, or no daemon.\n");
}

/* dynpf rules apply [--batch] FILE: a stream of changes, each acked. */
static int rules_apply(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct apply_in in = { .line = 1 };
	struct dynpf_client_conn conn = { .fd = -1 };
	const char *sock = dynpf_client_socket(), *name;
	int c, err, ret = DYNPF_EXIT_OK;
	bool batch = false;

	while ((c = getopt_long(argc, argv, "bjh", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			batch = true;
			break;
		case 'j':
			dynpf_json = true;
			break;
		case 'h':
			apply_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			return dynpf_try_help("rules apply");
		}
	}
	if (optind + 1 != argc) {
		p_err(optind >= argc ? "rules apply: missing the input (a file, or - for standard "
				       "input)"
				     : "rules apply: unexpected argument '%s'",
		      argv[optind + 1 < argc ? optind + 1 : 0]);
		return DYNPF_EXIT_USAGE;
	}
	name = strcmp(argv[optind], "-") ? argv[optind] : "<stdin>";
	in.fd = strcmp(argv[optind], "-") ? open(argv[optind], O_RDONLY | O_CLOEXEC) : 0;
	if (in.fd < 0) {
		p_err("%s: %s", argv[optind], strerror(errno));
		return DYNPF_EXIT_USAGE;
	}
	if (dynpf_client_connect(&conn, sock)) {
		ret = DYNPF_EXIT_USAGE;
		goto out;
	}
	for (;;) {
		json_object *req, *lines, *rep, *res;
		size_t bytes, n;

		/* Block only when no whole line (or batch) is there to send. */
		err = apply_read(&in, false);
		while (!err && !(bytes = apply_take(&in, batch, &n)) && !in.eof) {
			if (in.len >= APPLY_CHUNK_BYTES) {
				p_err("%s:%lu: %s longer than %d bytes", name, in.line,
				      batch ? "a batch" : "a line", APPLY_CHUNK_BYTES);
				err = -E2BIG;
				break;
			}
			err = apply_read(&in, true);
		}
		if (err) {
			if (err != -E2BIG)
				p_err("%s: %s", name, strerror(-err));
			ret = DYNPF_EXIT_USAGE;
			break;
		}
		if (!bytes)
			break; /* the end of the input */
		if (memchr(in.buf, 0, bytes)) {
			p_err("%s: a NUL byte after line %lu", name, in.line);
			ret = DYNPF_EXIT_USAGE;
			break;
		}
		req = dynpf_client_request("rules-apply");
		lines = json_object_new_array();
		for (size_t off = 0, k = 0; k < n; k++) {
			char *e = memchr(in.buf + off, '\n', bytes - off);
			size_t l = (e ? (size_t)(e - in.buf) : bytes) - off;

			if (l && in.buf[off + l - 1] == '\r')
				l--;
			json_object_array_add(lines, json_object_new_string_len(in.buf + off, l));
			off = e ? (size_t)(e - in.buf) + 1 : bytes;
		}
		json_object_object_add(req, "lines", lines);
		json_object_object_add(req, "first", json_object_new_int64(in.line));
		json_object_object_add(req, "name", json_object_new_string(name));
		json_object_object_add(req, "batch", json_object_new_boolean(batch));
		/* A connection quiet for long is the daemon's to drop: a new one. */
		if (dynpf_now_ms() - conn.last_ms > APPLY_IDLE_MS) {
			dynpf_client_disconnect(&conn);
			if (dynpf_client_connect(&conn, sock)) {
				json_object_put(req);
				ret = DYNPF_EXIT_USAGE;
				break;
			}
		}
		rep = dynpf_client_exchange(&conn, sock, req);
		if (!dynpf_client_ok(rep)) {
			json_object_put(rep);
			ret = DYNPF_EXIT_USAGE;
			break;
		}
		res = jget(rep, "results");
		for (size_t i = 0; i < json_object_array_length(res); i++) {
			json_object *r = json_object_array_get_idx(res, i);

			apply_print(r, name);
			if (!json_object_get_boolean(jget(r, "ok")))
				ret = DYNPF_EXIT_DIFF;
		}
		fflush(stdout);
		json_object_put(rep);
		in.line += n;
		in.len -= bytes;
		memmove(in.buf, in.buf + bytes, in.len);
	}
out:
	dynpf_client_disconnect(&conn);
	if (in.fd > 0)
		close(in.fd);
	free(in.buf);
	return ret;
}

static const struct dynpf_cmd rules_cmds[] = {
	{ "check", rules_check, "parse a rule file, print it normalized (or as JSON)" },
	{ "load", rules_load, "replace the daemon's rule set with a file, at once" },
	{ "save", rules_save, "the daemon's rule set, in a form that loads back" },
	{ "apply", rules_apply, "a stream of rule changes, each line a transaction, each acked" },
};

static void rules_usage(FILE *f)
{
	dynpf_cmds_usage(f, rules_cmds, ARRAY_SIZE(rules_cmds),
			 "Usage: dynpf rules SUBCOMMAND [ARGS]\n"
			 "\n"
			 "Rule files, in the rule language of docs/rules.md.\n"
			 "\n"
			 "Subcommands:\n",
			 "\n"
			 "'dynpf rules SUBCOMMAND --help' describes a subcommand.\n");
}

int cmd_rules(int argc, char **argv)
{
	const struct dynpf_cmd *cmd;

	if (argc < 2) {
		rules_usage(stderr);
		return DYNPF_EXIT_USAGE;
	}
	if (dynpf_is_help(argv[1]) || !strcmp(argv[1], "help")) {
		rules_usage(stdout);
		return DYNPF_EXIT_OK;
	}
	cmd = dynpf_cmd_find(rules_cmds, ARRAY_SIZE(rules_cmds), argv[1]);
	if (!cmd) {
		p_err("unknown rules subcommand '%s': try 'dynpf rules --help'", argv[1]);
		return DYNPF_EXIT_USAGE;
	}
	optind = 0; /* getopt restarts on the subcommand's own arguments */
	return cmd->fn(argc - 1, argv + 1);
}
