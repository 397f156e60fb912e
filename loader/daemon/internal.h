/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What the daemon's files share, and nothing outside daemon/ includes:
 * the daemon's state and the functions one of its files gives the others.
 *
 *   main.c      cmd_daemon: options, start-up, the main loop, shutdown
 *   pins.c      bpffs, the paths under the pin directory, its lock, the
 *               programs loaded with their maps pinned (or adopted)
 *   ifaces.c    attachments: XDP, TC (attach/), counters' interface slots,
 *               interfaces going away (rtnetlink)
 *   handlers.c  the requests (req_*), their dispatch, the rule file
 *   changes.c   rule changes one at a time and in streams (rule-add,
 *               rule-del, rules-apply), rule lifetimes
 *   serve.c     the control socket: open it, check a peer, serve a client
 *   rsview.c    the active rule set as `rules save` writes it, its digest
 *   watch.c     the rule file watched (inotify): reloaded when it changes
 *   metrics.c   the Prometheus metrics: what a scrape reads and writes
 *   http.c      their HTTP server (libmicrohttpd), run from the main loop
 */
#ifndef DYNPF_LOADER_DAEMON_INTERNAL_H
#define DYNPF_LOADER_DAEMON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <limits.h>

#include <json-c/json.h>

#include "attach/attach.h"
#include "channel/ring.h"
#include "channel/ruleset.h"
#include "daemon/config.h"
#include "lang/rules_lang.h"
#include "lib/progs.h"

struct attachment {
	struct dynpf_iface_cfg cfg;
	int ifindex;
	struct dynpf_tc_link tc; /* TC: its tcx link (pinned), or dynpf's clsact filter */
	uint32_t slot;           /* its counters' slot (dynpf_ifslots) */
	int cfg_idx;             /* its entry in cfg.ifaces, or -1: a client's */
	char how[96];            /* how it is attached, for status */
};

/*
 * The rule file watched for changes (watch.c): the directory holding the
 * configured path, and the one its target resolves into (a Kubernetes
 * ConfigMap volume: rules -> ..data/rules, ..data -> ..2026_...).
 */
struct rules_watch {
	int fd;                    /* inotify, or -1 */
	int wd_dir, wd_target;     /* watches, or -1 */
	char target_dir[PATH_MAX]; /* what wd_target watches */
	int64_t due_ms;            /* a look at the file is due then (debounce), or 0 */
	unsigned char sum[32];     /* SHA-256 of the bytes last loaded or refused */
	bool have_sum;
	int read_err; /* the file could not be read: -errno, said once */
};

/* The active rule set as `rules save` writes it, kept per generation (rsview.c). */
struct rs_view {
	bool valid;
	uint64_t gen;
	char digest[72]; /* "sha256:" and 64 hex digits, of the text */
	size_t nrules;
	uint32_t *ids; /* the first cfg.metrics_rules rules by id */
	uint8_t *acts; /* and their actions (DYNPF_ACT_*) */
	size_t nids;
};

/* Buckets of the transactions' histogram (metrics.c), in seconds. */
#define TXN_BUCKETS 12

/* What the metrics count that the maps do not (metrics.c). */
struct daemon_counts {
	double start_time; /* the daemon's start, Unix seconds */
	/* The rule file's reloads (start, SIGHUP, a change on disk). */
	uint64_t reloads_ok, reloads_refused;
	bool reloaded, last_ok;
	double last_time;
	char last_file[PATH_MAX];
	unsigned long last_line, last_col;
	char last_error[256];
	/* Transactions on the control channel, and their acks that refused. */
	uint64_t txn_ok, txn_refused, txn_failed, acks_refused;
	uint64_t txn_bucket[TXN_BUCKETS]; /* cumulative counts: le bucket bound */
	double txn_sum;
};

struct dynpf_http;

/* A rule's lifetime: when it runs out (CLOCK_REALTIME ns), and its id. */
struct expiry {
	__u64 at;
	__u32 id;
};

/* Rules running out that status lists, the soonest first. */
#define DYNPF_STATUS_EXPIRING 10

struct daemon {
	struct dynpf_config cfg;
	const char *config_path;
	struct dynpf_bpf *skel; /* the maps, the TC programs, the drain */
	struct dynpf_lazy lazy; /* the packet programs, on skel's maps (lib/progs.h) */
	struct dynpf_ctrl ctrl;
	bool adopted; /* the maps were pinned before: a restart */
	struct attachment att[DYNPF_MAX_IFACES];
	int natt;
	int lsock, sigfd;
	int nlsock; /* link events: an attached interface going away */
	int lockfd; /* the pin directory, flock()ed: one daemon per pin_dir */
	bool stop;
	/* Configured interfaces kept attached (a client's detach takes one
	 * off), and the ifindex an attach last failed on (not retried). */
	bool want[DYNPF_MAX_IFACES];
	int failed_ifindex[DYNPF_MAX_IFACES];
	struct rules_watch watch;
	struct rs_view view;
	struct daemon_counts counts;
	struct dynpf_http *http;
	/* changes.c: the rule set's maps as memory, the ids in use, the lifetimes. */
	struct dynpf_rules_view rv;
	struct dynpf_rule_ids *ids;
	struct expiry *exp; /* a heap, soonest first (stale ones skipped) */
	size_t nexp, capexp;
};

/* pins.c */
int mkdir_p(const char *path, mode_t mode);
int check_bpffs(const char *dir);
void pin_path(const struct daemon *d, const char *name, char *out, size_t len);
void tc_link_path(const struct daemon *d, const struct attachment *a, char *out, size_t len);
void clsact_mark_path(const struct daemon *d, const char *ifname, char *out, size_t len);
int load_programs(struct daemon *d);

/* ifaces.c */
void attachment_init(struct attachment *a, const struct dynpf_iface_cfg *cfg);
int attach_one(struct daemon *d, struct attachment *a);
int attach_all(struct daemon *d);
bool iface_waiting(const struct daemon *d, int i);
void detach_one(struct daemon *d, struct attachment *a);
void detach_all(struct daemon *d);
void attachment_drop(struct daemon *d, int i);
void ifslot_put(struct daemon *d, int ifindex);
void on_link_events(struct daemon *d);
int attachment_stats_hook(const struct attachment *a); /* DYNPF_HOOK_* */

/* handlers.c */
int rules_load_text(struct daemon *d, const char *path, const char *text, size_t len,
		    const char *why);
json_object *handle_request(struct daemon *d, const char *line, size_t len);

/* changes.c */
struct dynpf_req;
int changes_open(struct daemon *d);
void changes_close(struct daemon *d);
void changes_rebuild(struct daemon *d);                 /* after a whole rule set was replaced */
int64_t changes_next_expiry_ms(const struct daemon *d); /* -1: no lifetime */
void changes_expire(struct daemon *d);                  /* the rules that ran out */
void changes_status(const struct daemon *d, json_object *o);
json_object *req_rule_add(struct daemon *d, const struct dynpf_req *req);
json_object *req_rule_del(struct daemon *d, const struct dynpf_req *req);
json_object *req_rules_apply(struct daemon *d, const struct dynpf_req *req);

/* serve.c */
int socket_in_use(const char *path);
int open_control_socket(struct daemon *d);
void serve_client(struct daemon *d, int fd);

/* rsview.c */
const struct rs_view *rs_view_get(struct daemon *d);
void rs_view_free(struct rs_view *v);

/* watch.c */
int rules_reload(struct daemon *d, const char *why, bool force);
int watch_open(struct daemon *d);
void watch_events(struct daemon *d);
void watch_due(struct daemon *d);
void watch_close(struct daemon *d);

/* metrics.c */
void counts_reload(struct daemon *d, const char *file, int err, const char *msg, unsigned long line,
		   unsigned long col);
void counts_txn(struct daemon *d, double secs, int err);
void counts_txn_only(struct daemon *d, double secs, int err);
void counts_acks(struct daemon *d);
char *metrics_text(struct daemon *d, size_t *len);

/* http.c */
int http_open(struct daemon *d);
int http_fd(const struct daemon *d);
int64_t http_timeout_ms(const struct daemon *d);
void http_run(struct daemon *d);
void http_close(struct daemon *d);

#endif
