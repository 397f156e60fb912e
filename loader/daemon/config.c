// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The daemon's configuration file: see config.h and docs/config.md.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "daemon/config.h"
#include "dynpf/ctrl.h"
#include "lib/log.h"

static const char *const hook_names[] = {
	[DYNPF_ATTACH_XDP] = "xdp",
	[DYNPF_ATTACH_XDP_GENERIC] = "xdp-generic",
	[DYNPF_ATTACH_TC_INGRESS] = "tc-ingress",
	[DYNPF_ATTACH_TC_EGRESS] = "tc-egress",
};

const char *dynpf_attach_hook_name(enum dynpf_attach_hook h)
{
	return (unsigned int)h < sizeof(hook_names) / sizeof(hook_names[0]) ? hook_names[h] : "?";
}

int dynpf_attach_hook_parse(const char *s, enum dynpf_attach_hook *h)
{
	for (size_t i = 0; i < sizeof(hook_names) / sizeof(hook_names[0]); i++)
		if (!strcmp(s, hook_names[i])) {
			*h = i;
			return 0;
		}
	return -EINVAL;
}

void dynpf_config_defaults(struct dynpf_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->pin_dir, sizeof(c->pin_dir), "/sys/fs/bpf/dynpf");
	snprintf(c->socket, sizeof(c->socket), "/run/dynpf/dynpf.sock");
	c->max_rules = DYNPF_MAX_RULES;
	c->parse = DYNPF_PARSE_CFG_DEFAULT;
	c->socket_gid = -1;
	c->rules_watch = true;
	c->metrics_rules = DYNPF_METRICS_RULES_DEFAULT;
}

int dynpf_listen_parse(const char *s, struct sockaddr_storage *out, char *err, size_t errlen)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)out;
	struct sockaddr_in *a4 = (struct sockaddr_in *)out;
	const char *colon = strrchr(s, ':');
	char host[64], *end;
	unsigned long port;
	size_t hlen;

	memset(out, 0, sizeof(*out));
	if (!colon) {
		snprintf(err, errlen, "no ':PORT'");
		return -EINVAL;
	}
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port < 1 || port > 65535 || colon[1] == '+' ||
	    colon[1] == '-') {
		snprintf(err, errlen, "port '%s': expected 1 to 65535", colon + 1);
		return -EINVAL;
	}
	hlen = colon - s;
	if (hlen >= sizeof(host)) {
		snprintf(err, errlen, "the host is too long");
		return -EINVAL;
	}
	memcpy(host, s, hlen);
	host[hlen] = 0;
	if (!strcmp(host, "localhost"))
		snprintf(host, sizeof(host), "127.0.0.1");
	if (!host[0] || (host[0] == '[' && hlen > 2 && host[hlen - 1] == ']')) {
		/* IPv6, or every address (IPv4 too, through the IPv6 socket). */
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		if (!host[0])
			return 0;
		host[hlen - 1] = 0;
		if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) == 1)
			return 0;
		snprintf(err, errlen, "'%s' is not an IPv6 address", host + 1);
		return -EINVAL;
	}
	a4->sin_family = AF_INET;
	a4->sin_port = htons(port);
	if (inet_pton(AF_INET, host, &a4->sin_addr) == 1)
		return 0;
	snprintf(err, errlen, "'%s': expected an IPv4 address, [IPv6], or localhost", host);
	return -EINVAL;
}

struct cfg_ctx {
	const char *path;
	const char *text;
};

/* The line of the first occurrence of "key" in the file: for messages. */
static int line_of(const struct cfg_ctx *x, const char *key)
{
	char pat[96];
	const char *p;
	int line = 1;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(x->text, pat);
	if (!p)
		return 0;
	for (const char *q = x->text; q < p; q++)
		line += *q == '\n';
	return line;
}

#define CFG_ERR(x, key, ...)                                                 \
	({                                                                   \
		char m_[256];                                                \
		snprintf(m_, sizeof(m_), __VA_ARGS__);                       \
		p_err("%s:%d: %s: %s", (x)->path, line_of(x, key), key, m_); \
		-EINVAL;                                                     \
	})

static int get_str(const struct cfg_ctx *x, json_object *o, const char *key, char *out, size_t len)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return CFG_ERR(x, key, "expected a string");
	if ((size_t)json_object_get_string_len(v) >= len)
		return CFG_ERR(x, key, "longer than %zu bytes", len - 1);
	snprintf(out, len, "%s", json_object_get_string(v));
	return 0;
}

static int get_bool(const struct cfg_ctx *x, json_object *o, const char *key, bool *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return CFG_ERR(x, key, "expected true or false");
	*out = json_object_get_boolean(v);
	return 0;
}

static int get_uint(const struct cfg_ctx *x, json_object *o, const char *key, uint32_t lo,
		    uint32_t hi, uint32_t *out)
{
	json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int))
		return CFG_ERR(x, key, "expected a number from %u to %u", lo, hi);
	n = json_object_get_int64(v);
	if (n < lo || n > hi)
		return CFG_ERR(x, key, "%lld is out of range (%u to %u)", (long long)n, lo, hi);
	*out = n;
	return 0;
}

/* Keys an object may hold: anything else is a typo, and an error. */
static int only_keys(const struct cfg_ctx *x, json_object *o, const char *const *keys)
{
	json_object_object_foreach(o, k, v) {
		bool ok = false;

		(void)v;
		for (const char *const *p = keys; *p; p++)
			ok |= !strcmp(k, *p);
		if (!ok)
			return CFG_ERR(x, k, "unknown setting");
	}
	return 0;
}

static int parse_iface(const struct cfg_ctx *x, json_object *o, struct dynpf_iface_cfg *ic)
{
	static const char *const keys[] = { "name", "hook", "frags", NULL };
	char hook[32] = "xdp";
	int err;

	if (!json_object_is_type(o, json_type_object))
		return CFG_ERR(x, "interfaces", "expected objects {\"name\", \"hook\"}");
	err = only_keys(x, o, keys);
	err = err ?: get_str(x, o, "name", ic->name, sizeof(ic->name));
	err = err ?: get_str(x, o, "hook", hook, sizeof(hook));
	err = err ?: get_bool(x, o, "frags", &ic->frags);
	if (err)
		return err;
	if (!ic->name[0])
		return CFG_ERR(x, "interfaces", "an interface without a \"name\"");
	if (dynpf_attach_hook_parse(hook, &ic->hook))
		return CFG_ERR(x, "hook",
			       "'%s': expected xdp, xdp-generic, tc-ingress or tc-egress", hook);
	return 0;
}

int dynpf_config_load(const char *path, struct dynpf_config *c)
{
	static const char *const keys[] = { "pin_dir",        "socket",        "rules",
					    "max_rules",      "parse",         "trace",
					    "detach_on_exit", "socket_group",  "netns",
					    "interfaces",     "tc_attach",     "rules_watch",
					    "metrics_listen", "metrics_rules", NULL };
	static const char *const pkeys[] = { "max_ext", "max_stacks", NULL };
	struct json_tokener *tok = NULL;
	json_object *root = NULL, *v;
	struct cfg_ctx x = { .path = path };
	char *text = NULL, group[64] = "", tcm[16] = "auto";
	size_t len = 0;
	FILE *f;
	int err = -EINVAL;

	dynpf_config_defaults(c);
	f = fopen(path, "r");
	if (!f) {
		err = -errno;
		p_err("%s: %s", path, strerror(errno));
		return err;
	}
	text = calloc(1, 1 << 20);
	if (text)
		len = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	if (!text)
		return -ENOMEM;
	x.text = text;
	tok = json_tokener_new();
	root = json_tokener_parse_ex(tok, text, len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		size_t off = json_tokener_get_parse_end(tok);
		int line = 1;

		for (size_t i = 0; i < off && i < len; i++)
			line += text[i] == '\n';
		p_err("%s:%d: %s", path, line,
		      json_tokener_get_error(tok) == json_tokener_continue
			      ? "the file ends inside the JSON object"
			      : json_tokener_error_desc(json_tokener_get_error(tok)));
		goto out;
	}
	if (!json_object_is_type(root, json_type_object)) {
		p_err("%s: expected a JSON object", path);
		goto out;
	}
	if (only_keys(&x, root, keys) ||
	    get_str(&x, root, "pin_dir", c->pin_dir, sizeof(c->pin_dir)) ||
	    get_str(&x, root, "socket", c->socket, sizeof(c->socket)) ||
	    get_str(&x, root, "rules", c->rules, sizeof(c->rules)) ||
	    get_uint(&x, root, "max_rules", 1, DYNPF_MAX_RULES, &c->max_rules) ||
	    get_bool(&x, root, "trace", &c->trace) ||
	    get_bool(&x, root, "detach_on_exit", &c->detach_on_exit) ||
	    get_str(&x, root, "socket_group", group, sizeof(group)) ||
	    get_str(&x, root, "netns", c->netns, sizeof(c->netns)) ||
	    get_str(&x, root, "tc_attach", tcm, sizeof(tcm)) ||
	    get_bool(&x, root, "rules_watch", &c->rules_watch) ||
	    get_str(&x, root, "metrics_listen", c->metrics_listen, sizeof(c->metrics_listen)) ||
	    get_uint(&x, root, "metrics_rules", 0, DYNPF_MAX_RULES, &c->metrics_rules))
		goto out;
	if (c->metrics_listen[0]) {
		char why[128];

		if (dynpf_listen_parse(c->metrics_listen, &c->metrics_addr, why, sizeof(why))) {
			err = CFG_ERR(&x, "metrics_listen",
				      "'%s': %s (HOST:PORT, e.g. 127.0.0.1:9477 or [::1]:9477)",
				      c->metrics_listen, why);
			goto out;
		}
	}
	if (!strcmp(tcm, "auto")) {
		c->tc_mode = DYNPF_TC_AUTO;
	} else if (!strcmp(tcm, "tcx")) {
		c->tc_mode = DYNPF_TC_TCX;
	} else if (!strcmp(tcm, "clsact")) {
		c->tc_mode = DYNPF_TC_CLSACT;
	} else {
		err = CFG_ERR(&x, "tc_attach", "'%s': expected auto, tcx or clsact", tcm);
		goto out;
	}
	if (strchr(c->netns, '/')) {
		err = CFG_ERR(&x, "netns", "a name from `ip netns list`, not a path");
		goto out;
	}
	if (group[0]) {
		struct group *g = getgrnam(group);

		if (!g) {
			err = CFG_ERR(&x, "socket_group", "no group '%s'", group);
			goto out;
		}
		c->socket_gid = g->gr_gid;
	}
	if (json_object_object_get_ex(root, "parse", &v)) {
		uint32_t me = c->parse.max_ext, ms = c->parse.max_stacks;

		if (!json_object_is_type(v, json_type_object)) {
			err = CFG_ERR(&x, "parse", "expected {\"max_ext\", \"max_stacks\"}");
			goto out;
		}
		if (only_keys(&x, v, pkeys) || get_uint(&x, v, "max_ext", 1, DYNPF_MAX_EXT, &me) ||
		    get_uint(&x, v, "max_stacks", 1, DYNPF_MAX_STACKS, &ms))
			goto out;
		c->parse.max_ext = me;
		c->parse.max_stacks = ms;
	}
	if (json_object_object_get_ex(root, "interfaces", &v)) {
		size_t n;

		if (!json_object_is_type(v, json_type_array)) {
			err = CFG_ERR(&x, "interfaces", "expected a list");
			goto out;
		}
		n = json_object_array_length(v);
		if (n > DYNPF_MAX_IFACES) {
			err = CFG_ERR(&x, "interfaces", "more than %d", DYNPF_MAX_IFACES);
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			if (parse_iface(&x, json_object_array_get_idx(v, i), &c->ifaces[i]))
				goto out;
			for (size_t k = 0; k < i; k++)
				if (!strcmp(c->ifaces[k].name, c->ifaces[i].name) &&
				    (c->ifaces[k].hook == DYNPF_ATTACH_TC_INGRESS ||
				     c->ifaces[k].hook == DYNPF_ATTACH_TC_EGRESS) ==
					    (c->ifaces[i].hook == DYNPF_ATTACH_TC_INGRESS ||
					     c->ifaces[i].hook == DYNPF_ATTACH_TC_EGRESS) &&
				    (c->ifaces[k].hook == c->ifaces[i].hook ||
				     c->ifaces[i].hook < DYNPF_ATTACH_TC_INGRESS)) {
					err = CFG_ERR(&x, "interfaces",
						      "%s is attached twice at %s",
						      c->ifaces[i].name,
						      dynpf_attach_hook_name(c->ifaces[i].hook));
					goto out;
				}
		}
		c->nifaces = n;
	}
	err = 0;
out:
	json_object_put(root);
	json_tokener_free(tok);
	free(text);
	return err;
}
