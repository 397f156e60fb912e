/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The daemon's configuration file: JSON with comments (configs/dynpf.conf is
 * the annotated example, docs in docs/config.md).
 */
#ifndef DYNPF_LOADER_CONFIG_H
#define DYNPF_LOADER_CONFIG_H

#include <limits.h>
#include <net/if.h>
#include <sys/socket.h>
#include <stdbool.h>
#include <stdint.h>

#include "attach/attach.h" /* enum dynpf_tc_mode */
#include "dynpf/pkt.h"

enum dynpf_attach_hook {
	DYNPF_ATTACH_XDP,         /* native (driver) mode */
	DYNPF_ATTACH_XDP_GENERIC, /* SKB mode */
	DYNPF_ATTACH_TC_INGRESS,
	DYNPF_ATTACH_TC_EGRESS,
};

struct dynpf_iface_cfg {
	char name[IF_NAMESIZE];
	enum dynpf_attach_hook hook;
	bool frags; /* XDP: the multi-buffer program (jumbo frames) */
};

#define DYNPF_MAX_IFACES 64
#define DYNPF_METRICS_RULES_DEFAULT 100

struct dynpf_config {
	char pin_dir[PATH_MAX]; /* under bpffs: programs, maps and links */
	char socket[PATH_MAX];  /* the control socket */
	char rules[PATH_MAX];   /* rule file loaded at a fresh start and on SIGHUP ("" none) */
	uint32_t max_rules;     /* rule ids the tables hold */
	struct dynpf_parse_cfg parse;
	bool trace;                 /* every parse result on the trace ring */
	bool detach_on_exit;        /* SIGTERM detaches and unpins everything */
	enum dynpf_tc_mode tc_mode; /* how TC hooks are attached */
	int socket_gid;             /* a group allowed on the socket besides root, or -1 */
	char netns[NAME_MAX + 1];   /* a named network namespace to work in ("" ours) */
	bool rules_watch;           /* reload the rule file when it changes on disk */
	/* Prometheus metrics over HTTP: "HOST:PORT" ("" off), its address. */
	char metrics_listen[64];
	struct sockaddr_storage metrics_addr;
	uint32_t metrics_rules; /* rules with series of their own: the first N by id */
	struct dynpf_iface_cfg ifaces[DYNPF_MAX_IFACES];
	int nifaces;
};

void dynpf_config_defaults(struct dynpf_config *c);

/*
 * Read path into c (defaults first). 0, or -EINVAL after printing one
 * error naming the file, the line and the field.
 */
int dynpf_config_load(const char *path, struct dynpf_config *c);

/*
 * "HOST:PORT" (an IPv4 address, an IPv6 one in brackets, "localhost", or
 * nothing: every address) to a socket address. 0, or -EINVAL with why in
 * err.
 */
int dynpf_listen_parse(const char *s, struct sockaddr_storage *out, char *err, size_t errlen);

const char *dynpf_attach_hook_name(enum dynpf_attach_hook h);
int dynpf_attach_hook_parse(const char *s, enum dynpf_attach_hook *h);

#endif
