// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf daemon: loads dynpf's programs once, pins their maps under bpffs,
 * attaches them to the configured interfaces, is the only producer on the
 * control ring, and serves the CLI on a Unix socket (docs/daemon.md).
 *
 * Restarts keep filtering: XDP programs attached through netlink and tcx
 * links pinned under the pin directory stay attached while no daemon runs,
 * and a new daemon reuses the pinned maps (the rule set, its counters) and
 * swaps its freshly loaded programs in atomically.
 *
 * This file is cmd_daemon: its options, the start-up in named steps, the
 * main loop, and the shutdown. internal.h says which file does the rest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "lib/util.h"
#include "daemon/daemon.h"
#include "daemon/internal.h"
#include "dynpf.skel.h"
#include "dynpf_lazy.skel.h"
#include "lib/log.h"
#include "lib/nl.h"
#include "lib/progs.h"

static void daemon_usage(FILE *f)
{
	fprintf(f, "Usage: dynpf daemon [--config FILE]\n"
		   "\n"
		   "Loads dynpf's programs, pins them under the configured bpffs directory,\n"
		   "attaches them to the configured interfaces, loads the rule file, and serves\n"
		   "the CLI on the control socket (docs/daemon.md). Logs go to stderr, with\n"
		   "journald priorities. SIGHUP reloads the rule file as one transaction, as\n"
		   "does a change of it on disk (\"rules_watch\"); with \"metrics_listen\" it\n"
		   "serves Prometheus metrics over HTTP at /metrics;\n"
		   "SIGTERM stops (and detaches everything if \"detach_on_exit\" is set).\n"
		   "\n"
		   "  --config FILE   the configuration (default " DYNPF_DEFAULT_CONFIG ")\n"
		   "  --check-config  read the configuration, say what it holds, exit\n"
		   "  -h, --help      this text\n");
}

/* libxdp's messages in the daemon's log: those it writes by itself (not its debug). */
static int libxdp_print(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBXDP_DEBUG)
		return 0;
	return dynpf_log_lib(level == LIBXDP_WARN ? LOG_WARN : LOG_INFO, fmt, ap);
}

/* --check-config: what the configuration holds. */
static int check_config(const struct daemon *d)
{
	printf("%s: valid; %d interface%s, pins in %s, socket %s\n", d->config_path, d->cfg.nifaces,
	       d->cfg.nifaces == 1 ? "" : "s", d->cfg.pin_dir, d->cfg.socket);
	for (int i = 0; i < d->cfg.nifaces; i++)
		printf("  %s %s%s\n", d->cfg.ifaces[i].name,
		       dynpf_attach_hook_name(d->cfg.ifaces[i].hook),
		       d->cfg.ifaces[i].frags ? " (frags)" : "");
	if (d->cfg.rules[0])
		printf("  rules %s%s\n", d->cfg.rules,
		       d->cfg.rules_watch ? ", reloaded when it changes" : "");
	if (d->cfg.metrics_listen[0])
		printf("  metrics at http://%s/metrics, the first %u rules by id\n",
		       d->cfg.metrics_listen, d->cfg.metrics_rules);
	return DYNPF_EXIT_OK;
}

/*
 * The options and the configuration: -1 to go on and run the daemon (its
 * log journald's from the configuration on), or the exit code.
 */
static int daemon_options(struct daemon *d, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check-config", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	bool check_only = false;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			d->config_path = optarg;
			break;
		case 'C':
			check_only = true;
			break;
		case 'h':
			daemon_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			fprintf(stderr, "Try 'dynpf daemon --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		p_err("daemon: unexpected argument '%s'", argv[optind]);
		return DYNPF_EXIT_USAGE;
	}
	if (!check_only) {
		dynpf_log_journald();
		libxdp_set_print(libxdp_print);
	}
	if (dynpf_config_load(d->config_path, &d->cfg))
		return DYNPF_EXIT_USAGE;
	return check_only ? check_config(d) : -1;
}

/* Only the network namespace: bpffs and the socket stay ours. */
static int enter_netns(const struct daemon *d)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", d->cfg.netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		p_err("cannot enter the network namespace '%s' (%s): %s", d->cfg.netns, path,
		      strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Why the configuration needs CAP_SYS_ADMIN, or NULL when it does not. */
static const char *sys_admin_for(const struct dynpf_config *c)
{
	if (c->netns[0])
		return "to enter a network namespace";
	for (int i = 0; i < c->nifaces; i++)
		if (c->ifaces[i].hook == DYNPF_ATTACH_XDP ||
		    c->ifaces[i].hook == DYNPF_ATTACH_XDP_GENERIC)
			return "for XDP: libxdp reads the programs' BTF by id";
	return NULL;
}

/*
 * Before anything is loaded: the capabilities (each missing one named), the
 * kernel, the network namespace, the pin directory made and locked, the
 * socket nobody else's. 0, or -1 with nothing left behind.
 */
static int prepare(struct daemon *d)
{
	bool existed;
	int err;

	if (dynpf_check_caps(sys_admin_for(&d->cfg)) || dynpf_probe_kernel())
		return -1;
	if (d->cfg.netns[0] && enter_netns(d))
		return -1;
	if (check_bpffs(d->cfg.pin_dir))
		return -1;
	existed = !access(d->cfg.pin_dir, F_OK);
	err = mkdir_p(d->cfg.pin_dir, 0700);
	if (err) {
		p_err("cannot create %s: %s", d->cfg.pin_dir, strerror(-err));
		return -1;
	}
	d->lockfd = dynpf_lock_pin_dir(d->cfg.pin_dir, "stop it first, or give this one a "
						       "pin_dir of its own");
	if (d->lockfd < 0)
		return -1;
	if (socket_in_use(d->cfg.socket)) {
		if (!existed)
			rmdir(d->cfg.pin_dir);
		close(d->lockfd);
		return -1;
	}
	return 0;
}

/*
 * The programs and the control ring. What a killed daemon left in the ring
 * is drained (its acks are nobody's), and a transaction it left open
 * aborted: nothing of it applies unless it was committed. 0 or -1.
 */
static int load(struct daemon *d)
{
	int discarded = 0, n;

	if (load_programs(d) || dynpf_ctrl_open(&d->ctrl, d->skel))
		return -1;
	n = dynpf_ctrl_recover(&d->ctrl, &discarded);
	if (n < 0 || changes_open(d))
		return -1;
	if (discarded)
		pr_warn("%d message%s a killed daemon reserved in the control ring and never "
			"finished: discarded\n",
			discarded, discarded == 1 ? "" : "s");
	if (n)
		pr_warn("%d messages a killed daemon left in the control ring: drained, its open "
			"transaction aborted\n",
			n);
	return 0;
}

/*
 * The metrics' listener (in the daemon's network namespace), the rule file
 * (a fresh start) and its watch, the interfaces, the socket. 0 or -1.
 */
static int start(struct daemon *d)
{
	if (http_open(d))
		return -1;
	if (!d->adopted && d->cfg.rules[0] && rules_reload(d, "start", true))
		return -1;
	if (watch_open(d))
		return -1;
	/* Before attaching: an interface that goes away from then on is seen. */
	d->nlsock = dynpf_nl_open(RTMGRP_LINK, SOCK_NONBLOCK); /* link deletions */
	if (d->nlsock < 0) {
		p_err("cannot watch the interfaces (netlink): %s", strerror(-d->nlsock));
		return -1;
	}
	if (attach_all(d) || open_control_socket(d))
		return -1;
	return 0;
}

/* SIGHUP reloads the rule file; SIGTERM and SIGINT stop. */
static void on_signal(struct daemon *d)
{
	struct signalfd_siginfo si;

	if (read(d->sigfd, &si, sizeof(si)) != sizeof(si))
		return;
	if (si.ssi_signo == SIGHUP) {
		if (d->cfg.rules[0])
			rules_reload(d, "SIGHUP", true);
		else
			pr_warn("SIGHUP: no rule file configured\n");
	} else {
		pr_info("signal %u: stopping\n", si.ssi_signo);
		d->stop = true;
	}
}

/* How long the loop may sleep: until the rule file's look or the HTTP server's timeout. */
static int poll_timeout(const struct daemon *d)
{
	int64_t t = http_timeout_ms(d), x = changes_next_expiry_ms(d);

	if (x >= 0 && (t < 0 || x < t))
		t = x; /* a rule's lifetime runs out then */

	if (d->watch.due_ms) {
		int64_t w = d->watch.due_ms - dynpf_now_ms();

		w = w < 0 ? 0 : w;
		t = t < 0 || w < t ? w : t;
	}
	return t > 60000 ? 60000 : (int)t;
}

/*
 * Signals, link events, the rule file's changes, scrapes and clients, one
 * at a time, until a signal stops it.
 */
static void run(struct daemon *d)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	d->sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	pr_info("ready: %d interface%s, %s, socket %s\n", d->natt, d->natt == 1 ? "" : "s",
		d->adopted ? "rules and counters adopted from the pinned maps" : "fresh maps",
		d->cfg.socket);
	while (!d->stop) {
		/* A descriptor of -1 (no watch, no metrics, no grace period
		 * yet) is left out by poll. The grace periods are the reclaim's
		 * (channel/ring.h). */
		struct pollfd pfd[6] = { { .fd = d->lsock, .events = POLLIN },
					 { .fd = d->sigfd, .events = POLLIN },
					 { .fd = d->nlsock, .events = POLLIN },
					 { .fd = d->watch.fd, .events = POLLIN },
					 { .fd = http_fd(d), .events = POLLIN },
					 { .fd = dynpf_ctrl_gp_fd(&d->ctrl), .events = POLLIN } };

		if (poll(pfd, 6, poll_timeout(d)) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[5].revents & POLLIN)
			dynpf_ctrl_reclaim(&d->ctrl, 0);
		changes_expire(d);
		if (pfd[1].revents & POLLIN)
			on_signal(d);
		if (pfd[2].revents & POLLIN)
			on_link_events(d);
		if (pfd[3].revents & POLLIN)
			watch_events(d);
		if (d->watch.due_ms && dynpf_now_ms() >= d->watch.due_ms)
			watch_due(d);
		/* Its work, and its timeouts: run it every time round. */
		http_run(d);
		if (pfd[0].revents & POLLIN) {
			int cfd = accept4(d->lsock, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

			if (cfd >= 0)
				serve_client(d, cfd);
		}
	}
}

/* What the process holds, closed: the pins keep what stays attached. */
static void release(struct daemon *d)
{
	if (d->lsock >= 0) {
		close(d->lsock);
		unlink(d->cfg.socket);
	}
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->nlsock >= 0)
		close(d->nlsock);
	http_close(d);
	watch_close(d);
	rs_view_free(&d->view);
	changes_close(d);
	dynpf_ctrl_close(&d->ctrl);
	for (int i = 0; i < d->natt; i++)
		if (d->att[i].tc.fd >= 0)
			close(d->att[i].tc.fd); /* the pin keeps the link */
	dynpf_lazy_close(&d->lazy);
	dynpf_bpf__destroy(d->skel);
	close(d->lockfd);
}

/* dynpf daemon: the command table (cli/cmds.h) calls it. */
int cmd_daemon(int argc, char **argv)
{
	struct daemon d = { .config_path = DYNPF_DEFAULT_CONFIG,
			    .lsock = -1,
			    .sigfd = -1,
			    .nlsock = -1,
			    .lockfd = -1,
			    .watch = { .fd = -1, .wd_dir = -1, .wd_target = -1 } };
	int ret = daemon_options(&d, argc, argv);
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	d.counts.start_time = now.tv_sec + now.tv_nsec / 1e9;
	if (ret >= 0)
		return ret;
	if (prepare(&d))
		return DYNPF_EXIT_USAGE;
	ret = DYNPF_EXIT_USAGE;
	if (load(&d))
		goto out;
	if (start(&d))
		goto out_detach;
	run(&d);
	ret = DYNPF_EXIT_OK;
	if (d.cfg.detach_on_exit) {
		detach_all(&d);
		/* libxdp's own directory, if it made it and nobody else uses it. */
		rmdir("/sys/fs/bpf/xdp");
	} else {
		pr_info("left attached, maps and links pinned under %s\n", d.cfg.pin_dir);
	}
	goto out;
out_detach:
	/* Nothing half-attached left behind by a failed fresh start; a failed
	 * restart leaves the last daemon's programs filtering. */
	if (!d.adopted)
		detach_all(&d);
out:
	release(&d);
	return ret;
}
