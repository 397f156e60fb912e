// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The daemon's Prometheus metrics (docs/daemon.md has the list): the text
 * exposition format, version 0.0.4, written at each scrape from what the
 * maps hold then (per-CPU counters summed over the CPUs, the rule set, the
 * programs' run time) and from what the daemon counted itself (the rule
 * file's reloads, the control channel's transactions). A scrape only reads:
 * the data path counts nothing for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "daemon/internal.h"
#include "dynpf.skel.h"
#include "dynpf_lazy.skel.h"
#include "lib/progs.h"
#include "lib/util.h"

/* Upper bounds of the transactions' histogram buckets, in seconds. */
static const double txn_le[TXN_BUCKETS] = { 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
					    0.05,   0.1,   0.25,   0.5,   1,    2.5 };

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void counts_reload(struct daemon *d, const char *file, int err, const char *msg, unsigned long line,
		   unsigned long col)
{
	struct daemon_counts *c = &d->counts;

	c->reloaded = true;
	c->last_ok = !err;
	c->last_time = unix_now();
	if (!err) {
		c->reloads_ok++;
		return;
	}
	c->reloads_refused++;
	snprintf(c->last_file, sizeof(c->last_file), "%s", file);
	snprintf(c->last_error, sizeof(c->last_error), "%s", msg);
	c->last_line = line;
	c->last_col = col;
}

/*
 * A transaction on the control channel took secs: 0 committed, -EINVAL
 * refused (by the rule language or the drain), else the channel failed.
 * The acks it got that refused a message are counted too (every
 * transaction starts with dynpf_ctrl_take(): they are its own).
 */
void counts_txn(struct daemon *d, double secs, int err)
{
	counts_txn_only(d, secs, err);
	counts_acks(d);
}

/* The same, of one transaction among those of one flush (changes.c). */
void counts_txn_only(struct daemon *d, double secs, int err)
{
	struct daemon_counts *c = &d->counts;

	if (!err)
		c->txn_ok++;
	else if (err == -EINVAL)
		c->txn_refused++;
	else
		c->txn_failed++;
	for (int b = 0; b < TXN_BUCKETS; b++)
		c->txn_bucket[b] += secs <= txn_le[b];
	c->txn_sum += secs;
}

/* The acks that refused a message, of everything since dynpf_ctrl_take(). */
void counts_acks(struct daemon *d)
{
	for (size_t i = 0; i < d->ctrl.nack; i++)
		d->counts.acks_refused += d->ctrl.ack[i].a.err != 0;
}

/* A label's value, escaped as the format wants (\\, \", \n). */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One series: NAME{LABELS} VALUE (labels "" : none). */
static void series(FILE *f, const char *name, const char *labels, uint64_t v)
{
	fprintf(f, labels[0] ? "%s{%s} %llu\n" : "%s%s %llu\n", name, labels,
		(unsigned long long)v);
}

/* The labels of an attachment: interface="NAME",hook="HOOK" (no braces). */
static void att_labels(FILE *f, const struct dynpf_iface_cfg *cfg)
{
	fputs("interface=\"", f);
	label(f, cfg->name);
	fprintf(f, "\",hook=\"%s\"", dynpf_attach_hook_name(cfg->hook));
}

static const char *const act_names[DYNPF_STATS_ACTS] = { "none", "pass", "drop", "redirect" };

/* Per attachment: packets and bytes per action and per parse error. */
static void iface_metrics(FILE *f, struct daemon *d)
{
	int sfd = bpf_map__fd(d->skel->maps.dynpf_stats);
	struct dynpf_stats s[DYNPF_MAX_IFACES];
	bool ok[DYNPF_MAX_IFACES];
	static const struct {
		const char *name, *help;
		bool bytes, err;
	} fams[] = {
		{ "dynpf_packets_total",
		  "Packets a dynpf program decided, per interface, hook and "
		  "action (pass, drop, redirect).",
		  false, false },
		{ "dynpf_bytes_total",
		  "Bytes of the packets a dynpf program decided, per interface, "
		  "hook and action.",
		  true, false },
		{ "dynpf_parse_errors_total",
		  "Packets whose parse ended in an error, per interface, "
		  "hook and error (docs/parsing.md).",
		  false, true },
		{ "dynpf_parse_error_bytes_total",
		  "Bytes of the packets whose parse ended in an "
		  "error, per interface, hook and error.",
		  true, true },
	};

	for (int i = 0; i < d->natt; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		ok[i] = !dynpf_stats_read(sfd, d->att[i].slot, attachment_stats_hook(&d->att[i]),
					  &s[i]);
	}
	for (size_t k = 0; k < ARRAY_SIZE(fams); k++) {
		family(f, fams[k].name, "counter", fams[k].help);
		for (int i = 0; i < d->natt; i++) {
			int n = fams[k].err ? DYNPF_E_MAX : DYNPF_STATS_ACTS;

			for (int j = 1; ok[i] && j < n; j++) {
				fprintf(f, "%s{", fams[k].name);
				att_labels(f, &d->att[i].cfg);
				if (fams[k].err)
					fprintf(f, ",error=\"%s\"} %llu\n",
						dynpf_match_error_name(j) ?: "unknown",
						(unsigned long long)(fams[k].bytes
									     ? s[i].err_bytes[j]
									     : s[i].err[j]));
				else
					fprintf(f, ",action=\"%s\"} %llu\n", act_names[j],
						(unsigned long long)(fams[k].bytes
									     ? s[i].act_bytes[j]
									     : s[i].act[j]));
			}
		}
	}
	family(f, "dynpf_attached", "gauge",
	       "1 for an attachment in place, 0 for a configured one whose interface is not "
	       "there (attached when it appears).");
	for (int i = 0; i < d->natt; i++) {
		fputs("dynpf_attached{", f);
		att_labels(f, &d->att[i].cfg);
		fputs("} 1\n", f);
	}
	for (int i = 0; i < d->cfg.nifaces; i++) {
		if (!iface_waiting(d, i))
			continue;
		fputs("dynpf_attached{", f);
		att_labels(f, &d->cfg.ifaces[i]);
		fputs("} 0\n", f);
	}
}

/* The rule set: size, generation, digest, and the first rules' counters. */
static void rules_metrics(FILE *f, struct daemon *d)
{
	const struct rs_view *v = rs_view_get(d);
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(d->skel->maps.dynpf_rule_stats);
	struct dynpf_rule_stats *rsv = ncpu > 0 ? calloc(ncpu, sizeof(*rsv)) : NULL;
	uint64_t *pk = NULL, *by = NULL;
	char help[256];

	if (!v || !rsv) {
		free(rsv);
		return;
	}
	family(f, "dynpf_ruleset_generation", "gauge",
	       "The active rule set's generation: one more at each committed transaction.");
	fprintf(f, "dynpf_ruleset_generation %llu\n", (unsigned long long)v->gen);
	family(f, "dynpf_ruleset_info", "gauge",
	       "The active rule set's digest: SHA-256 of its text as `dynpf rules save` writes "
	       "it (as `dynpf status` says it).");
	fprintf(f, "dynpf_ruleset_info{digest=\"%s\"} 1\n", v->digest);
	family(f, "dynpf_ruleset_rules", "gauge", "Rules in the active rule set.");
	fprintf(f, "dynpf_ruleset_rules %zu\n", v->nrules);
	pk = calloc(v->nids ?: 1, sizeof(*pk));
	by = calloc(v->nids ?: 1, sizeof(*by));
	for (size_t i = 0; pk && by && i < v->nids; i++) {
		__u32 id = v->ids[i];

		if (bpf_map_lookup_elem(fd, &id, rsv))
			continue;
		for (int c = 0; c < ncpu; c++) {
			pk[i] += rsv[c].packets;
			by[i] += rsv[c].bytes;
		}
	}
	for (int k = 0; pk && by && k < 2; k++) {
		const char *name = k ? "dynpf_rule_bytes_total" : "dynpf_rule_packets_total";

		snprintf(help, sizeof(help),
			 "%s each rule matched, per rule id and action: the first %u rules by id "
			 "(metrics_rules).",
			 k ? "Bytes of the packets" : "Packets", d->cfg.metrics_rules);
		family(f, name, "counter", help);
		for (size_t i = 0; i < v->nids; i++)
			fprintf(f, "%s{id=\"%u\",action=\"%s\"} %llu\n", name, v->ids[i],
				dynpf_action_name(v->acts[i]) ?: "unknown",
				(unsigned long long)(k ? by[i] : pk[i]));
	}
	free(pk);
	free(by);
	free(rsv);
}

/* The rule file's reloads: how many, and the last one's result. */
static void reload_metrics(FILE *f, const struct daemon *d)
{
	const struct daemon_counts *c = &d->counts;

	family(f, "dynpf_rules_reloads_total", "counter",
	       "Loads of the rule file (at a fresh start, on SIGHUP, when it changed on disk), "
	       "per result: ok, or refused (the rule set kept).");
	series(f, "dynpf_rules_reloads_total", "result=\"ok\"", c->reloads_ok);
	series(f, "dynpf_rules_reloads_total", "result=\"refused\"", c->reloads_refused);
	if (!c->reloaded)
		return;
	family(f, "dynpf_rules_last_reload_success", "gauge",
	       "1 if the rule file's last load was applied, 0 if it was refused.");
	fprintf(f, "dynpf_rules_last_reload_success %d\n", c->last_ok);
	family(f, "dynpf_rules_last_reload_timestamp_seconds", "gauge",
	       "When the rule file was last loaded or refused, in Unix seconds.");
	fprintf(f, "dynpf_rules_last_reload_timestamp_seconds %.3f\n", c->last_time);
	if (c->last_ok)
		return;
	family(f, "dynpf_rules_last_reload_error_info", "gauge",
	       "Why the rule file's last load was refused: the file, line and column of the "
	       "error (0: none), and the error.");
	fputs("dynpf_rules_last_reload_error_info{file=\"", f);
	label(f, c->last_file);
	fprintf(f, "\",line=\"%lu\",column=\"%lu\",error=\"", c->last_line, c->last_col);
	label(f, c->last_error);
	fputs("\"} 1\n", f);
}

/* The control channel: messages, acks, the ring, the transactions' time. */
static void ctrl_metrics(FILE *f, const struct daemon *d)
{
	const struct daemon_counts *c = &d->counts;
	const struct dynpf_ctrl *r = &d->ctrl;
	uint64_t inflight = r->sent > r->acked ? r->sent - r->acked : 0;

	family(f, "dynpf_ctrl_messages_total", "counter",
	       "Messages this daemon wrote to the control ring.");
	series(f, "dynpf_ctrl_messages_total", "", r->sent);
	family(f, "dynpf_ctrl_acks_total", "counter",
	       "Acks the drain program answered the messages with, per result: ok, or refused "
	       "(a message the drain's checks refused).");
	series(f, "dynpf_ctrl_acks_total", "result=\"ok\"",
	       r->acked - (c->acks_refused < r->acked ? c->acks_refused : 0));
	series(f, "dynpf_ctrl_acks_total", "result=\"refused\"", c->acks_refused);
	family(f, "dynpf_ctrl_transactions_total", "counter",
	       "Transactions on the control channel (a rule file, a rule added or deleted), per "
	       "result: committed, refused (nothing changed), failed (the channel failed).");
	series(f, "dynpf_ctrl_transactions_total", "result=\"committed\"", c->txn_ok);
	series(f, "dynpf_ctrl_transactions_total", "result=\"refused\"", c->txn_refused);
	series(f, "dynpf_ctrl_transactions_total", "result=\"failed\"", c->txn_failed);
	family(f, "dynpf_ctrl_transaction_duration_seconds", "histogram",
	       "How long a transaction took, from its first message to its last ack.");
	for (int b = 0; b < TXN_BUCKETS; b++)
		fprintf(f, "dynpf_ctrl_transaction_duration_seconds_bucket{le=\"%g\"} %llu\n",
			txn_le[b], (unsigned long long)c->txn_bucket[b]);
	series(f, "dynpf_ctrl_transaction_duration_seconds_bucket", "le=\"+Inf\"",
	       c->txn_ok + c->txn_refused + c->txn_failed);
	fprintf(f, "dynpf_ctrl_transaction_duration_seconds_sum %.6f\n", c->txn_sum);
	series(f, "dynpf_ctrl_transaction_duration_seconds_count", "",
	       c->txn_ok + c->txn_refused + c->txn_failed);
	family(f, "dynpf_ctrl_ring_size_bytes", "gauge", "The control ring's size.");
	fprintf(f, "dynpf_ctrl_ring_size_bytes %u\n",
		bpf_map__max_entries(d->skel->maps.dynpf_ctrl));
	family(f, "dynpf_ctrl_ring_messages", "gauge",
	       "Messages in the control ring not yet drained (the daemon drains before it "
	       "answers: 0 unless a drain failed).");
	series(f, "dynpf_ctrl_ring_messages", "", inflight);
	family(f, "dynpf_ctrl_ring_peak_messages", "gauge",
	       "The most messages the control ring held at once since the daemon started.");
	series(f, "dynpf_ctrl_ring_peak_messages", "", r->peak);
	family(f, "dynpf_ctrl_ring_full_total", "counter",
	       "Messages that found the control ring full (the daemon drained it, then wrote "
	       "them): a transaction larger than the ring.");
	series(f, "dynpf_ctrl_ring_full_total", "", r->full);
}

/* One series of name per loaded program of obj: runs (k 1) or seconds. */
static void prog_runs(FILE *f, const char *name, int k, struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);

		if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len))
			continue;
		if (k)
			fprintf(f, "%s{program=\"%s\"} %llu\n", name, bpf_program__name(p),
				(unsigned long long)info.run_cnt);
		else
			fprintf(f, "%s{program=\"%s\"} %.9f\n", name, bpf_program__name(p),
				info.run_time_ns / 1e9);
	}
}

/* The programs' run time, where the kernel counts it (BPF stats). */
static void prog_metrics(FILE *f, const struct daemon *d)
{
	FILE *sf = fopen("/proc/sys/kernel/bpf_stats_enabled", "re");
	int on = 0;

	if (sf) {
		if (fscanf(sf, "%d", &on) != 1)
			on = 0;
		fclose(sf);
	}
	family(f, "dynpf_bpf_stats_enabled", "gauge",
	       "1 if the kernel counts BPF programs' run time (sysctl kernel.bpf_stats_enabled; "
	       "the daemon does not turn it on).");
	fprintf(f, "dynpf_bpf_stats_enabled %d\n", on);
	for (int k = 0; k < 2; k++) {
		const char *name =
			k ? "dynpf_program_runs_total" : "dynpf_program_run_seconds_total";

		family(f, name, "counter",
		       k ? "Runs of each dynpf program: 0 unless kernel.bpf_stats_enabled is 1 (or "
			   "a BPF_ENABLE_STATS file descriptor is held)."
			 : "Time each dynpf program ran: 0 unless kernel.bpf_stats_enabled is 1 "
			   "(or a BPF_ENABLE_STATS file descriptor is held).");
		/* skel's programs, then the XDP programs (lib/progs.h). */
		prog_runs(f, name, k, d->skel->obj);
		for (int tc = 0; tc < 2; tc++)
			if (dynpf_lazy_obj(&d->lazy, tc))
				prog_runs(f, name, k, dynpf_lazy_obj(&d->lazy, tc));
	}
}

/* The whole exposition, malloc()ed (*len bytes), or NULL. */
char *metrics_text(struct daemon *d, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	iface_metrics(f, d);
	rules_metrics(f, d);
	reload_metrics(f, d);
	ctrl_metrics(f, d);
	prog_metrics(f, d);
	family(f, "dynpf_daemon_start_time_seconds", "gauge",
	       "When the daemon started, in Unix seconds.");
	fprintf(f, "dynpf_daemon_start_time_seconds %.3f\n", d->counts.start_time);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
