// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live --xdp-bench: xdp-tools' xdp-bench drop on the
 * receiving end, while the generator sends, where it works; said and
 * skipped where it does not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/live.h"

/*
 * xdp-tools' xdp-bench drop on dynpf-rx, in the rx namespace (setns, so the
 * host's /sys/fs/bpf stays in view), while the generator sends for the
 * duration. It is stopped with SIGINT, as a user would. Where it cannot
 * attach (Debian 12's xdp-tools 1.3.1 wants the tracepoint
 * xdp_redirect_map_err, gone from recent kernels) it exits at once: said,
 * and skipped.
 */
void lv_run_xdp_bench(struct lv_ctx *x)
{
	struct bench_live *res = x->res;
	char *argv[] = { "xdp-bench", "drop", "-i", "1", DYNPF_TB_RX_IF, NULL };
	bool had_xdp_dir = access("/sys/fs/bpf/xdp", F_OK) == 0, stopped = false;
	size_t len = 0, cap = 4096;
	int pfd[2], status = 0, saved;
	double t_end;
	pid_t pid;

	res->xb = XB_SKIPPED;
	res->xb_out = calloc(1, cap);
	if (!res->xb_out || pipe2(pfd, O_CLOEXEC)) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "cannot start it: %s", strerror(errno));
		return;
	}
	if (dynpf_netns_enter(x->tb.rx_ns, &saved)) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "cannot enter %s", x->tb.ns_rx);
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "exec xdp-bench: %s\n", strerror(errno));
		_exit(127);
	}
	dynpf_netns_leave(&saved);
	close(pfd[1]);
	if (pid < 0) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "cannot start it: %s", strerror(errno));
		close(pfd[0]);
		return;
	}
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	lv_sender_set(&x->tx, TX_RUN);
	t_end = dynpf_now() + x->cfg->duration + 1; /* its first interval prints nothing */
	for (;;) {
		ssize_t r;

		if (len + 1024 > cap) {
			char *n = realloc(res->xb_out, 2 * cap);

			if (!n)
				break;
			res->xb_out = n;
			cap *= 2;
		}
		r = read(pfd[0], res->xb_out + len, cap - len - 1);
		if (r > 0) {
			len += r;
			continue;
		}
		if (r == 0)
			break; /* it exited */
		if (!stopped && (dynpf_tb_signalled() || dynpf_now() >= t_end)) {
			kill(pid, SIGINT); /* as a user would */
			stopped = true;
			t_end = dynpf_now();
		}
		if (stopped && dynpf_now() > t_end + 5)
			kill(pid, SIGKILL);
		usleep(50000);
	}
	lv_sender_set(&x->tx, TX_IDLE);
	res->xb_out[len] = 0;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (!had_xdp_dir)
		rmdir("/sys/fs/bpf/xdp"); /* libxdp's, if it made it and it is empty */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && strstr(res->xb_out, "exec")) {
		snprintf(res->xb_msg, sizeof(res->xb_msg), "not installed, skipped");
		return;
	}
	if (!stopped) {
		/* It ended on its own: its first error line says why. */
		const char *why = strstr(res->xb_out, "failed to find kernel BTF type ID");
		char line[160];

		if (!why)
			why = res->xb_out;
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(why, "\n"), why);
		snprintf(res->xb_msg, sizeof(res->xb_msg),
			 "does not work on this kernel (exit %d: %s), skipped",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), line);
		return;
	}
	res->xb = XB_OK;
	snprintf(res->xb_msg, sizeof(res->xb_msg), "ran for %u s on %s", x->cfg->duration,
		 DYNPF_TB_RX_IF);
}
