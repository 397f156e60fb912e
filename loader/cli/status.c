// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf status: the daemon, its interfaces and its rule set. dynpf stats:
 * its counters per interface and hook, per hook, per rule; --watch prints
 * them again every interval with the rates since the last reading.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/client.h"
#include "cli/cmds.h"
#include "lib/log.h"
#include "lib/util.h"

static void status_print(json_object *rep, const void *arg)
{
	json_object *ifs = jget(rep, "interfaces"), *waiting = jget(rep, "waiting");

	(void)arg;
	printf("dynpf daemon, pid %d, pins in %s%s\n", json_object_get_int(jget(rep, "pid")),
	       json_object_get_string(jget(rep, "pin_dir")),
	       json_object_get_boolean(jget(rep, "adopted")) ? " (adopted at start)" : "");
	printf("rule set: generation %lld, %lld rules, %lld tuples\n",
	       (long long)json_object_get_int64(jget(rep, "generation")),
	       (long long)json_object_get_int64(jget(rep, "rules")),
	       (long long)json_object_get_int64(jget(rep, "tuples")));
	if (jget(rep, "digest"))
		printf("digest: %s\n", json_object_get_string(jget(rep, "digest")));
	if (json_object_get_int64(jget(rep, "timed"))) {
		json_object *ex = jget(rep, "expiring");

		printf("rules with a timeout: %lld; the next to run out:",
		       (long long)json_object_get_int64(jget(rep, "timed")));
		for (size_t i = 0; i < json_object_array_length(ex); i++) {
			json_object *e = json_object_array_get_idx(ex, i);

			printf("%s rule %lld in %llds", i ? "," : "",
			       (long long)json_object_get_int64(jget(e, "id")),
			       (long long)json_object_get_int64(jget(e, "timeout")));
		}
		printf("\n");
	}
	for (size_t i = 0; i < json_object_array_length(ifs); i++) {
		json_object *a = json_object_array_get_idx(ifs, i);

		printf("  %-16s %-12s %s\n", json_object_get_string(jget(a, "name")),
		       json_object_get_string(jget(a, "hook")),
		       json_object_get_string(jget(a, "attach")));
	}
	/* Configured, not there: attached when they appear. */
	for (size_t i = 0; waiting && i < json_object_array_length(waiting); i++) {
		json_object *a = json_object_array_get_idx(waiting, i);

		printf("  %-16s %-12s waiting: no such interface yet\n",
		       json_object_get_string(jget(a, "name")),
		       json_object_get_string(jget(a, "hook")));
	}
}

int cmd_status(int argc, char **argv)
{
	if (argc > 1) {
		if (dynpf_is_help(argv[1])) {
			printf("Usage: dynpf status\n\nThe daemon: its interfaces and how each is "
			       "attached (or that a configured one\nis waiting to appear), the rule "
			       "set's generation, size and digest (the SHA-256\nof `dynpf rules "
			       "save`), the rules with a timeout and the next to run out.\nThe "
			       "socket is $DYNPF_SOCKET or " DYNPF_DEFAULT_SOCKET ".\n");
			return DYNPF_EXIT_OK;
		}
		p_err("status: unexpected argument '%s'", argv[1]);
		return DYNPF_EXIT_USAGE;
	}
	return dynpf_client_run(dynpf_client_request("status"), status_print, NULL);
}

/* A counter of the last reply, by hook name or rule id: for rates. */
static int64_t prev_count(json_object *prev, const char *hook, int64_t rule, const char *what)
{
	json_object *x;

	if (!prev)
		return -1;
	if (hook) {
		x = jget(jget(prev, "hooks"), hook);
		return x ? json_object_get_int64(jget(x, what)) : -1;
	}
	x = jget(prev, "rules");
	for (size_t i = 0; i < json_object_array_length(x); i++) {
		json_object *r = json_object_array_get_idx(x, i);

		if (json_object_get_int64(jget(r, "id")) == rule)
			return json_object_get_int64(jget(r, what));
	}
	return -1;
}

static void print_rate(int64_t now, int64_t before, double secs)
{
	if (before < 0 || secs <= 0)
		printf(" %12s", "-");
	else
		printf(" %12.0f", (now - before) / secs);
}

/* The packets of the last reply's attachment (interface and hook): for rates. */
static int64_t prev_iface(json_object *prev, const char *name, const char *hook)
{
	json_object *x = prev ? jget(prev, "interfaces") : NULL;

	for (size_t i = 0; x && i < json_object_array_length(x); i++) {
		json_object *r = json_object_array_get_idx(x, i);

		if (!strcmp(json_object_get_string(jget(r, "name")), name) &&
		    !strcmp(json_object_get_string(jget(r, "hook")), hook))
			return json_object_get_int64(jget(r, "packets"));
	}
	return -1;
}

static void stats_print(json_object *rep, json_object *prev, double secs)
{
	json_object *hooks = jget(rep, "hooks"), *rules = jget(rep, "rules");
	json_object *ifs = jget(rep, "interfaces");

	/* The rate column only under --watch, from the second reading on. */
	if (ifs && json_object_array_length(ifs)) {
		printf("%-15s %-11s %12s%s %12s %12s %12s %14s  errors\n", "interface", "hook",
		       "packets", prev ? "    packets/s" : "", "pass", "drop", "redirect", "bytes");
		for (size_t i = 0; i < json_object_array_length(ifs); i++) {
			json_object *r = json_object_array_get_idx(ifs, i),
				    *acts = jget(r, "actions");
			const char *name = json_object_get_string(jget(r, "name"));
			const char *hook = json_object_get_string(jget(r, "hook"));
			int64_t pk = json_object_get_int64(jget(r, "packets"));

			printf("%-15s %-11s %12lld", name, hook, (long long)pk);
			if (prev)
				print_rate(pk, prev_iface(prev, name, hook), secs);
			printf(" %12lld %12lld %12lld %14lld ",
			       (long long)json_object_get_int64(
				       jget(jget(acts, "pass"), "packets")),
			       (long long)json_object_get_int64(
				       jget(jget(acts, "drop"), "packets")),
			       (long long)json_object_get_int64(
				       jget(jget(acts, "redirect"), "packets")),
			       (long long)json_object_get_int64(jget(r, "bytes")));
			json_object_object_foreach(jget(r, "errors"), e, n)
				printf(" %s %lld", e,
				       (long long)json_object_get_int64(jget(n, "packets")));
			printf("\n");
		}
		printf("\n");
	}
	printf("%-27s %12s%s %14s  errors\n", "hook (every interface)", "packets",
	       prev ? "    packets/s" : "", "bytes");
	json_object_object_foreach(hooks, name, h) {
		int64_t pk = json_object_get_int64(jget(h, "packets"));

		printf("%-27s %12lld", name, (long long)pk);
		if (prev)
			print_rate(pk, prev_count(prev, name, 0, "packets"), secs);
		printf(" %14lld ", (long long)json_object_get_int64(jget(h, "bytes")));
		json_object_object_foreach(jget(h, "errors"), e, n)
			printf(" %s %lld", e, (long long)json_object_get_int64(n));
		printf("\n");
	}
	printf("\n%8s %12s%s %14s  rule\n", "id", "packets", prev ? "    packets/s" : "", "bytes");
	for (size_t i = 0; i < json_object_array_length(rules); i++) {
		json_object *r = json_object_array_get_idx(rules, i);
		int64_t id = json_object_get_int64(jget(r, "id"));
		int64_t pk = json_object_get_int64(jget(r, "packets"));

		printf("%8lld %12lld", (long long)id, (long long)pk);
		if (prev)
			print_rate(pk, prev_count(prev, NULL, id, "packets"), secs);
		printf(" %14lld  %s\n", (long long)json_object_get_int64(jget(r, "bytes")),
		       json_object_get_string(jget(r, "rule")));
	}
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "watch", no_argument, NULL, 'w' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	json_object *rep, *prev = NULL;
	long count = -1, interval_ms = 1000;
	bool watch = false;
	double t0, t1;
	int c;

	while ((c = getopt_long(argc, argv, "wi:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			watch = true;
			break;
		case 'i':
			interval_ms = (long)(strtod(optarg, NULL) * 1000);
			if (interval_ms < 100) {
				p_err("stats: --interval %s: at least 0.1 (seconds)", optarg);
				return DYNPF_EXIT_USAGE;
			}
			break;
		case 'c':
			count = dynpf_arg_count("stats", optarg);
			if (count < 0)
				return DYNPF_EXIT_USAGE;
			break;
		case 'h':
			printf("Usage: dynpf stats [--watch [--interval SECONDS] [--count N]]\n\n"
			       "Per attached interface and hook: packets and bytes, per action "
			       "(pass, drop,\nredirect) and per parse error; per hook, all "
			       "interfaces; per rule. -j has the\nbytes of each action and error too. "
			       "--watch prints them again every interval\n(default 1 s) with the "
			       "rates since the last, until Ctrl-C (or N times).\n");
			return DYNPF_EXIT_OK;
		default:
			return dynpf_try_help("stats");
		}
	}
	if (optind < argc) {
		p_err("stats: unexpected argument '%s'", argv[optind]);
		return DYNPF_EXIT_USAGE;
	}
	dynpf_stop_on(SIGINT);
	t0 = dynpf_now();
	for (;;) {
		rep = dynpf_client_send(dynpf_client_request("stats"));
		if (!rep) {
			json_object_put(prev);
			return DYNPF_EXIT_USAGE;
		}
		t1 = dynpf_now();
		if (!dynpf_json) {
			if (watch && prev)
				printf("\n");
			stats_print(rep, prev, t1 - t0);
		}
		fflush(stdout);
		json_object_put(prev);
		prev = rep;
		t0 = t1;
		if (!watch || dynpf_stop || (count > 0 && !--count))
			break;
		usleep(interval_ms * 1000);
		if (dynpf_stop)
			break;
	}
	json_object_put(prev);
	return DYNPF_EXIT_OK;
}
