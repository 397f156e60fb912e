// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: the CLI against a daemon (issue 19), as
 * a script calling it in a loop and an agent streaming changes see it. The
 * bench starts a daemon of its own (this binary, `dynpf daemon`: no
 * interface, its pins under /sys/fs/bpf/dynpf-bench-PID, its socket in a
 * temporary directory, detach_on_exit) with the generated set of 10,000
 * rules as its rule file, then times:
 *
 *   RB_CLI_N processes `dynpf rule add id N ip saddr A drop` and as many
 *   `dynpf rule del N`, one after another: each from its spawn to its exit
 *   (process start, the request, the transaction, the reply, the exit);
 *
 *   `dynpf rules apply FILE` of RB_CLI_CHANGES changes, each line a
 *   transaction (adds and deletes of /32 rules, in turn), from its spawn to
 *   its exit, every ack line read back and counted; and the same changes
 *   with --batch, RB_CLI_BATCH lines a transaction.
 *
 * The daemon is stopped (SIGTERM) and everything of it removed at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/rules.h"
#include "lang/rules_lang.h"
#include "lib/log.h"

extern char **environ;

struct cli_run {
	char dir[64], sock[128], pins[128], conf[128], rules[128], changes[128], out[128];
	char log[128];
	pid_t daemon;
	cpu_set_t saved;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Run argv (this binary) to its end, stdin from in and stdout to out (NULL:
 * /dev/null), DYNPF_SOCKET set; on every CPU, not the bench's alone. The
 * wall-clock ms from the spawn to the exit, or -1 (exit status not 0).
 */
static double cli_spawn(struct cli_run *r, char *const argv[], const char *in, const char *out)
{
	posix_spawn_file_actions_t fa;
	cpu_set_t all;
	double t0, t1;
	pid_t pid;
	int st = -1, err;

	CPU_ZERO(&all);
	for (int c = 0; c < CPU_SETSIZE; c++)
		CPU_SET(c, &all);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, in ? in : "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	sched_setaffinity(0, sizeof(all), &all);
	t0 = dynpf_now();
	err = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
	if (!err)
		waitpid(pid, &st, 0);
	t1 = dynpf_now();
	sched_setaffinity(0, sizeof(r->saved), &r->saved);
	posix_spawn_file_actions_destroy(&fa);
	if (err || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return (t1 - t0) * 1e3;
}

/* Does a daemon answer on the socket? */
static bool cli_daemon_up(const char *sock)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool up;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	up = fd >= 0 && !connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (fd >= 0)
		close(fd);
	return up;
}

/* The files of the run: the configuration, the rule file, the changes. */
static int cli_files(struct cli_run *r, uint32_t rules)
{
	char line[DYNPF_RULE_TEXT_MAX];
	struct dynpf_rule rule;
	FILE *f;

	f = fopen(r->conf, "w");
	if (!f)
		return -errno;
	fprintf(f,
		"{ \"pin_dir\": \"%s\", \"socket\": \"%s\", \"rules\": \"%s\", \"max_rules\": "
		"%u, \"detach_on_exit\": true, \"interfaces\": [] }\n",
		r->pins, r->sock, r->rules, DYNPF_MAX_RULES);
	fclose(f);
	f = fopen(r->rules, "w");
	if (!f)
		return -errno;
	for (uint32_t i = 0; i < rules; i++) {
		bench_rules_gen(bench_rules_set_id(rules, i), &rule);
		dynpf_rule_format(&rule, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	return fclose(f) ? -errno : 0;
}

/* The changes of rules apply: add and delete of RB_CLI_BATCH rules in turn. */
static int cli_changes(struct cli_run *r, bool batch)
{
	FILE *f = fopen(r->changes, "w");

	if (!f)
		return -errno;
	for (uint32_t i = 0; i < RB_CLI_CHANGES; i++) {
		uint32_t b = i / RB_CLI_BATCH, k = i % RB_CLI_BATCH, id = RB_SGL_BASE + k;

		if (b % 2 == 0)
			fprintf(f, "rule add id %u prio 0 ip saddr 198.19.%u.%u drop\n", id,
				128 + (k >> 8), k & 255);
		else
			fprintf(f, "rule del %u\n", id);
		if (batch && k == RB_CLI_BATCH - 1)
			fprintf(f, "\n");
	}
	return fclose(f) ? -errno : 0;
}

/* Lines of the output starting with "ok ". */
static uint32_t cli_oks(const char *path)
{
	char line[1024];
	uint32_t n = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		n += !strncmp(line, "ok ", 3);
	if (f)
		fclose(f);
	return n;
}

/* The daemon's log, to stderr: why it did not start. */
static void cli_say_log(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		fprintf(stderr, "  | %s", line);
	if (f)
		fclose(f);
}

static void cli_stop(struct cli_run *r)
{
	int st;

	if (r->daemon > 0) {
		kill(r->daemon, SIGTERM);
		for (int i = 0; i < 100 && !waitpid(r->daemon, &st, WNOHANG); i++)
			usleep(100000);
		if (!kill(r->daemon, 0)) {
			kill(r->daemon, SIGKILL);
			waitpid(r->daemon, &st, 0);
		}
	}
	unlink(r->sock);
	unlink(r->conf);
	unlink(r->rules);
	unlink(r->changes);
	unlink(r->out);
	unlink(r->log);
	rmdir(r->dir);
}

/* Time n processes of each kind (add, then del of the same id). */
static int cli_processes(struct cli_run *r, struct rb_cli *c)
{
	double *lat[2] = { calloc(RB_CLI_N, sizeof(double)), calloc(RB_CLI_N, sizeof(double)) };
	char id[16], addr[32];
	int err = 0;

	for (uint32_t i = 0; i < RB_CLI_N && lat[0] && lat[1] && !err; i++) {
		char *add[] = { "dynpf", "rule", "add",   "id", id,     "prio",
				"0",     "ip",   "saddr", addr, "drop", NULL };
		char *del[] = { "dynpf", "rule", "del", id, NULL };

		snprintf(id, sizeof(id), "%u", RB_SGL_BASE + i);
		snprintf(addr, sizeof(addr), "198.19.%u.%u", 128 + (i >> 8), i & 255);
		lat[0][i] = cli_spawn(r, add, NULL, NULL);
		lat[1][i] = cli_spawn(r, del, NULL, NULL);
		if (lat[0][i] < 0 || lat[1][i] < 0) {
			p_err("bench: `dynpf rule %s id %s` failed (the daemon's log: %s/log)",
			      lat[0][i] < 0 ? "add" : "del", id, r->dir);
			err = -EPROTO;
		}
	}
	for (int k = 0; k < 2 && !err && lat[k]; k++) {
		qsort(lat[k], RB_CLI_N, sizeof(double), cmp_double);
		c->p50_ms[k] = lat[k][RB_CLI_N / 2];
		c->p90_ms[k] = lat[k][RB_CLI_N * 9 / 10];
		c->max_ms[k] = lat[k][RB_CLI_N - 1];
	}
	if (!lat[0] || !lat[1])
		err = -ENOMEM;
	free(lat[0]);
	free(lat[1]);
	return err;
}

/* rules apply of the changes, per line and per batch: changes a second. */
static int cli_apply(struct cli_run *r, struct rb_cli *c)
{
	char *apply[] = { "dynpf", "rules", "apply", r->changes, NULL };
	char *batch[] = { "dynpf", "rules", "apply", "--batch", r->changes, NULL };
	double ms;
	int err;

	for (int k = 0; k < 2; k++) {
		err = cli_changes(r, k);
		if (err)
			return err;
		ms = cli_spawn(r, k ? batch : apply, NULL, r->out);
		c->acked[k] = cli_oks(r->out);
		if (ms < 0 || c->acked[k] != (k ? RB_CLI_CHANGES / RB_CLI_BATCH : RB_CLI_CHANGES)) {
			p_err("bench: `dynpf rules apply%s` of %u changes: %s, %u transactions "
			      "acked ok",
			      k ? " --batch" : "", RB_CLI_CHANGES, ms < 0 ? "failed" : "exit 0",
			      c->acked[k]);
			return -EPROTO;
		}
		c->apply_per_s[k] = RB_CLI_CHANGES / (ms / 1e3);
	}
	return 0;
}

int rb_cli(struct rb_ctx *x, uint32_t rules)
{
	struct rb_cli *c = &x->res->cli;
	struct cli_run r = { .daemon = -1 };
	char *daemon[] = { "dynpf", "daemon", "--config", r.conf, NULL };
	posix_spawn_file_actions_t fa;
	int err;

	memset(c, 0, sizeof(*c));
	c->rules = rules;
	c->n = RB_CLI_N;
	c->changes = RB_CLI_CHANGES;
	sched_getaffinity(0, sizeof(r.saved), &r.saved);
	snprintf(r.dir, sizeof(r.dir), "/tmp/dynpf-bench-cli.XXXXXX");
	if (!mkdtemp(r.dir)) {
		snprintf(c->why, sizeof(c->why), "cannot make a directory in /tmp: %s",
			 strerror(errno));
		return 0;
	}
	snprintf(r.sock, sizeof(r.sock), "%s/sock", r.dir);
	snprintf(r.conf, sizeof(r.conf), "%s/dynpf.conf", r.dir);
	snprintf(r.rules, sizeof(r.rules), "%s/set.rules", r.dir);
	snprintf(r.changes, sizeof(r.changes), "%s/changes", r.dir);
	snprintf(r.out, sizeof(r.out), "%s/acks", r.dir);
	snprintf(r.pins, sizeof(r.pins), "/sys/fs/bpf/dynpf-bench-%d", getpid());
	snprintf(r.log, sizeof(r.log), "%s/log", r.dir);
	err = cli_files(&r, rules);
	if (err) {
		snprintf(c->why, sizeof(c->why), "cannot write its files: %s", strerror(-err));
		goto out;
	}
	pr_info("bench: the CLI against a daemon of its own, %u rules\n", rules);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, r.log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	err = posix_spawn(&r.daemon, "/proc/self/exe", &fa, NULL, daemon, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		r.daemon = -1;
		snprintf(c->why, sizeof(c->why), "cannot start `dynpf daemon`: %s", strerror(err));
		goto out;
	}
	for (int i = 0; i < 600 && !cli_daemon_up(r.sock); i++) {
		int st;

		if (waitpid(r.daemon, &st, WNOHANG) == r.daemon) {
			r.daemon = -1;
			break;
		}
		usleep(100000);
	}
	if (r.daemon < 0 || !cli_daemon_up(r.sock)) {
		snprintf(c->why, sizeof(c->why), "its daemon did not start");
		p_err("bench: the daemon for the CLI figures did not start; its log:");
		cli_say_log(r.log);
		goto out;
	}
	setenv("DYNPF_SOCKET", r.sock, 1);
	err = cli_processes(&r, c);
	err = err ?: cli_apply(&r, c);
	unsetenv("DYNPF_SOCKET");
	if (err)
		return err; /* said; the directory kept for its log */
	c->done = true;
out:
	cli_stop(&r);
	return 0;
}

void rb_cli_print(const struct rb_cli *c)
{
	if (!c->done) {
		if (c->why[0])
			printf("\nthe CLI against a daemon: not measured: %s\n", c->why);
		return;
	}
	printf("\nthe CLI against a daemon of the bench's own, %u rules loaded\n", c->rules);
	printf("%28s %10s %10s %10s\n", "process start to exit, ms", "p50", "p90", "max");
	printf("%28s %10.2f %10.2f %10.2f\n", "dynpf rule add", c->p50_ms[0], c->p90_ms[0],
	       c->max_ms[0]);
	printf("%28s %10.2f %10.2f %10.2f   (target: p50 < 5 ms)\n", "dynpf rule del", c->p50_ms[1],
	       c->p90_ms[1], c->max_ms[1]);
	printf("dynpf rules apply FILE, %u changes, each line a transaction: %.0f changes/s\n"
	       "  (target: >= 20,000/s; %u acked ok); with --batch, %u lines a transaction:\n"
	       "  %.0f changes/s (%u acked ok)\n",
	       c->changes, c->apply_per_s[0], c->acked[0], RB_CLI_BATCH, c->apply_per_s[1],
	       c->acked[1]);
	printf("%u processes of each, one after another; rules apply from its start to its\n"
	       "exit, every ack line written (adds and deletes of /32 rules in turn).\n",
	       c->n);
}

json_object *rb_cli_json(const struct rb_cli *c)
{
	json_object *o = json_object_new_object();
	static const char *const kind[2] = { "rule_add", "rule_del" };

	json_object_object_add(o, "measured", json_object_new_boolean(c->done));
	if (!c->done) {
		json_object_object_add(o, "why_not", json_object_new_string(c->why));
		return o;
	}
	json_object_object_add(o, "rules_loaded", json_object_new_int64(c->rules));
	json_object_object_add(o, "processes", json_object_new_int64(c->n));
	for (int k = 0; k < 2; k++) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "p50_ms", dynpf_json_num(c->p50_ms[k], "%.2f"));
		json_object_object_add(j, "p90_ms", dynpf_json_num(c->p90_ms[k], "%.2f"));
		json_object_object_add(j, "max_ms", dynpf_json_num(c->max_ms[k], "%.2f"));
		json_object_object_add(o, kind[k], j);
	}
	json_object_object_add(o, "apply_changes", json_object_new_int64(c->changes));
	json_object_object_add(o, "apply_per_s", dynpf_json_num(c->apply_per_s[0], "%.0f"));
	json_object_object_add(o, "apply_batch_lines", json_object_new_int64(RB_CLI_BATCH));
	json_object_object_add(o, "apply_batch_per_s", dynpf_json_num(c->apply_per_s[1], "%.0f"));
	return o;
}
