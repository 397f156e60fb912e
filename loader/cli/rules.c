// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf rules SUBCOMMAND: rule files (docs/rules.md). A small table of
 * subcommands, each with its own options:
 *   check FILE   parse, print the normalized rule set (or JSON with -j)
 *   load FILE    replace the daemon's rule set with FILE, as one transaction
 *   save [FILE]  the daemon's rule set, in a form that loads back
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Every field of struct dynpf_rule and its match, by its C name. */
static json_object *rule_json(const struct dynpf_rule *r, unsigned long line)
{
	const struct dynpf_match *m = &r->m;
	json_object *o = json_object_new_object(), *mo = json_object_new_object();
	json_object *fields = json_object_new_array(), *tlv = json_object_new_array();
	json_object *val = json_object_new_array(), *data = json_object_new_array();
	char text[DYNPF_RULE_TEXT_MAX];

	dynpf_rule_format(r, text, sizeof(text));
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

		add(t, "family", jname(dynpf_tlv_test_family_name(m->tlv[i].family)));
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

		add(t, "where", jname(dynpf_data_where_name(d->where)));
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
	json_object *rules = json_object_new_array();

	for (unsigned int k = 1; k < DYNPF_SET_MAX; k++)
		if (rs->set_seen & (1u << k))
			add(set, dynpf_setting_name(k),
			    jname(dynpf_setting_value_name(k, rs->set[k])));
	add(top, "settings", set);
	for (size_t i = 0; i < rs->n; i++)
		json_object_array_add(rules, rule_json(&rs->rules[i], rs->lines[i]));
	add(top, "rules", rules);
	printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
	json_object_put(top);
}

static void check_print_text(const struct dynpf_ruleset *rs)
{
	char text[DYNPF_RULE_TEXT_MAX];

	for (unsigned int k = 1; k < DYNPF_SET_MAX; k++) {
		if (!(rs->set_seen & (1u << k)))
			continue;
		dynpf_setting_format(k, rs->set[k], text, sizeof(text));
		printf("%s\n", text);
	}
	for (size_t i = 0; i < rs->n; i++) {
		dynpf_rule_format(&rs->rules[i], text, sizeof(text));
		printf("%s\n", text);
	}
}

static void check_usage(FILE *f)
{
	fprintf(f, "Usage: dynpf rules check FILE [OPTIONS]\n"
		   "\n"
		   "Parses the rule file FILE (\"-\": standard input) with the rule language of\n"
		   "docs/rules.md and prints the rule set normalized, settings first, then one\n"
		   "rule per line with its id and priority: a file that loads to the same rules.\n"
		   "The first error is printed as FILE:LINE:COLUMN: what was expected.\n"
		   "\n"
		   "  -j, --json        one JSON object: \"settings\", and \"rules\" with every\n"
		   "                    field of each rule (as the global -j)\n"
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
		printf("Usage: dynpf rules save [FILE]\n\nThe daemon's active rule set "
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

static const struct dynpf_cmd rules_cmds[] = {
	{ "check", rules_check, "parse a rule file, print it normalized (or as JSON)" },
	{ "load", rules_load, "replace the daemon's rule set with a file, at once" },
	{ "save", rules_save, "the daemon's rule set, in a form that loads back" },
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
