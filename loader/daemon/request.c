// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynpf/ctrl.h"
#include "daemon/request.h"

static const struct {
	const char *name;
	enum dynpf_req_cmd cmd;
} cmds[] = {
	{ "status", DYNPF_REQ_STATUS },           { "rules-load", DYNPF_REQ_RULES_LOAD },
	{ "rules-save", DYNPF_REQ_RULES_SAVE },   { "rule-add", DYNPF_REQ_RULE_ADD },
	{ "rule-del", DYNPF_REQ_RULE_DEL },       { "stats", DYNPF_REQ_STATS },
	{ "attach", DYNPF_REQ_ATTACH },           { "detach", DYNPF_REQ_DETACH },
	{ "rules-apply", DYNPF_REQ_RULES_APPLY },
};

static int fail(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return -1;
}

/* A string member, or NULL; *bad when the member is there but no string. */
static const char *str_member(json_object *o, const char *key, size_t *len, bool *bad)
{
	json_object *v;

	*bad = false;
	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	if (!json_object_is_type(v, json_type_string)) {
		*bad = true;
		return NULL;
	}
	if (len)
		*len = json_object_get_string_len(v);
	return json_object_get_string(v);
}

/* "name": an interface name (IFNAMSIZ - 1 bytes at most, no NUL, no '/'). */
static int iface_name(struct dynpf_req *r, const char *cmd, char *err, size_t err_len)
{
	size_t len = 0;
	bool bad;

	r->name = str_member(r->obj, "name", &len, &bad);
	if (!r->name)
		return fail(err, err_len, "%s: expected \"name\", an interface", cmd);
	if (!len || len >= sizeof(((struct dynpf_iface_cfg *)0)->name) || strlen(r->name) != len ||
	    strchr(r->name, '/'))
		return fail(err, err_len, "%s: \"name\" is not an interface name", cmd);
	return 0;
}

static int hook_member(struct dynpf_req *r, const char *cmd, char *err, size_t err_len)
{
	const char *h;
	bool bad;

	h = str_member(r->obj, "hook", NULL, &bad);
	if (bad || (h && dynpf_attach_hook_parse(h, &r->hook)))
		return fail(
			err, err_len,
			"%s: hook '%.32s': expected xdp, xdp-generic, tc-ingress or tc-egress", cmd,
			h ? h : json_object_to_json_string(json_object_object_get(r->obj, "hook")));
	r->has_hook = h != NULL;
	if (!h)
		r->hook = DYNPF_ATTACH_XDP;
	return 0;
}

/* A member that is an array of strings: "words" and "lines". */
struct strings_spec {
	const char *member; /* its name */
	const char *what;   /* what it holds, for "expected" */
	const char *holder; /* "a rule", "a request": what has 1..max of them */
	const char *item;   /* "word", "line" */
	int max;
	bool one_line; /* a newline refused too */
};

static const struct strings_spec words_spec = { "words", "the rule's words",  "a rule",
						"word",  DYNPF_REQ_MAX_WORDS, false };
static const struct strings_spec lines_spec = { "lines", "the lines of rule changes", "a request",
						"line",  DYNPF_REQ_MAX_LINES,         true };

/* Member sp of r: strings without NUL bytes (nor newlines, if one_line), 1..max of them. */
static int strings_member(struct dynpf_req *r, const struct strings_spec *sp, char ***out,
			  int *nout, const char *cmd, char *err, size_t err_len)
{
	json_object *a, *w;
	size_t n;

	if (!json_object_object_get_ex(r->obj, sp->member, &a) ||
	    !json_object_is_type(a, json_type_array))
		return fail(err, err_len, "%s: expected \"%s\", %s", cmd, sp->member, sp->what);
	n = json_object_array_length(a);
	if (!n || n > (size_t)sp->max)
		return fail(err, err_len, "%s: %s has 1 to %d %ss, not %zu", cmd, sp->holder,
			    sp->max, sp->item, n);
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return fail(err, err_len, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *str;

		w = json_object_array_get_idx(a, i);
		if (!json_object_is_type(w, json_type_string))
			return fail(err, err_len, "%s: %s %zu is not a string", cmd, sp->item,
				    i + 1);
		str = json_object_get_string(w);
		if (strlen(str) != (size_t)json_object_get_string_len(w) ||
		    (sp->one_line && strchr(str, '\n')))
			return fail(err, err_len, "%s: %s %zu holds a NUL byte%s", cmd, sp->item,
				    i + 1, sp->one_line ? " or a newline" : "");
		(*out)[i] = (char *)str;
	}
	*nout = (int)n;
	return 0;
}

static int parse_fields(struct dynpf_req *r, const char *cmd, char *err, size_t err_len)
{
	json_object *v;
	bool bad;

	switch (r->cmd) {
	case DYNPF_REQ_RULES_LOAD:
		r->text = str_member(r->obj, "text", &r->text_len, &bad);
		if (!r->text)
			return fail(err, err_len, "%s: expected \"text\", the rule file", cmd);
		r->name = str_member(r->obj, "name", NULL, &bad);
		if (bad)
			return fail(err, err_len, "%s: \"name\" must be a string", cmd);
		if (!r->name)
			r->name = "<request>";
		return 0;
	case DYNPF_REQ_RULE_ADD:
		return strings_member(r, &words_spec, &r->words, &r->nwords, cmd, err, err_len);
	case DYNPF_REQ_RULE_DEL: {
		size_t len = 0;
		int64_t n;

		/* A declared protocol, by its name: {"protocol": NAME}. */
		r->proto = str_member(r->obj, "protocol", &len, &bad);
		if (bad ||
		    (r->proto && (!len || len >= DYNPF_PROTO_NAME_MAX || strlen(r->proto) != len)))
			return fail(err, err_len, "%s: \"protocol\" is not a protocol name", cmd);
		if (r->proto && json_object_object_get_ex(r->obj, "id", &v))
			return fail(err, err_len, "%s: \"id\" or \"protocol\", not both", cmd);
		if (r->proto)
			return 0;
		if (!json_object_object_get_ex(r->obj, "id", &v) ||
		    !json_object_is_type(v, json_type_int))
			return fail(err, err_len,
				    "%s: expected \"id\", a rule id, or \"protocol\", a name", cmd);
		n = json_object_get_int64(v);
		if (n <= 0 || n >= DYNPF_MAX_RULES)
			return fail(err, err_len, "%s: %lld is not a rule id (1..%d)", cmd,
				    (long long)n, DYNPF_MAX_RULES - 1);
		r->id = (uint32_t)n;
		return 0;
	}
	case DYNPF_REQ_ATTACH:
		if (iface_name(r, cmd, err, err_len) || hook_member(r, cmd, err, err_len))
			return -1;
		if (json_object_object_get_ex(r->obj, "frags", &v)) {
			if (!json_object_is_type(v, json_type_boolean))
				return fail(err, err_len, "%s: \"frags\" must be true or false",
					    cmd);
			r->frags = json_object_get_boolean(v);
		}
		return 0;
	case DYNPF_REQ_DETACH:
		return iface_name(r, cmd, err, err_len) || hook_member(r, cmd, err, err_len) ? -1
											     : 0;
	case DYNPF_REQ_RULES_APPLY:
		if (strings_member(r, &lines_spec, &r->lines, &r->nlines, cmd, err, err_len))
			return -1;
		r->name = str_member(r->obj, "name", NULL, &bad);
		if (bad)
			return fail(err, err_len, "%s: \"name\" must be a string", cmd);
		if (!r->name)
			r->name = "<request>";
		r->first = 1;
		if (json_object_object_get_ex(r->obj, "first", &v)) {
			int64_t n = json_object_get_int64(v);

			if (!json_object_is_type(v, json_type_int) || n < 1 || n > (int64_t)1 << 40)
				return fail(err, err_len, "%s: \"first\" is a line number", cmd);
			r->first = (unsigned long)n;
		}
		if (json_object_object_get_ex(r->obj, "batch", &v)) {
			if (!json_object_is_type(v, json_type_boolean))
				return fail(err, err_len, "%s: \"batch\" must be true or false",
					    cmd);
			r->batch = json_object_get_boolean(v);
		}
		return 0;
	default:
		return 0;
	}
}

static bool blank(const char *p, const char *end)
{
	for (; p < end; p++)
		if (!isspace((unsigned char)*p))
			return false;
	return true;
}

int dynpf_req_parse(const char *line, size_t len, struct dynpf_req *r, char *err, size_t err_len)
{
	json_tokener *tok = json_tokener_new();
	json_object *cmd;
	const char *c;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (!tok)
		return fail(err, err_len, "out of memory");
	r->obj = json_tokener_parse_ex(tok, line, (int)(len > INT32_MAX ? INT32_MAX : len));
	/* All of the line, one object: anything after it but blanks is an error. */
	if (!r->obj || json_tokener_get_error(tok) != json_tokener_success ||
	    !blank(line + json_tokener_get_parse_end(tok), line + len) ||
	    !json_object_is_type(r->obj, json_type_object)) {
		json_tokener_free(tok);
		dynpf_req_free(r);
		return fail(err, err_len, "a request is one JSON object on one line");
	}
	json_tokener_free(tok);
	if (!json_object_object_get_ex(r->obj, "cmd", &cmd) ||
	    !json_object_is_type(cmd, json_type_string)) {
		dynpf_req_free(r);
		return fail(err, err_len, "a request needs \"cmd\"");
	}
	c = json_object_get_string(cmd);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(c, cmds[i].name))
			break;
	if (i == sizeof(cmds) / sizeof(cmds[0])) {
		fail(err, err_len,
		     "unknown command '%.64s' (status, rules-load, rules-save, rule-add, "
		     "rule-del, rules-apply, stats, attach, detach)",
		     c);
		dynpf_req_free(r);
		return -1;
	}
	r->cmd = cmds[i].cmd;
	if (parse_fields(r, cmds[i].name, err, err_len)) {
		dynpf_req_free(r);
		return -1;
	}
	return 0;
}

void dynpf_req_free(struct dynpf_req *r)
{
	free(r->words);
	r->words = NULL;
	r->nwords = 0;
	free(r->lines);
	r->lines = NULL;
	r->nlines = 0;
	json_object_put(r->obj);
	r->obj = NULL;
}
