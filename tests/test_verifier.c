// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_verifier OBJ EXPECTED: load every program of OBJ and pass only if the
 * verifier rejects it with a log containing EXPECTED. A program that loads
 * is a failure: the misuse it shows was not caught.
 *
 * test_verifier --budget MAX OBJ: load OBJ, print the instructions the
 * verifier processed for each program, and fail if any needed more than MAX
 * (the kernel's limit is one million): keeps headroom for later parsers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

static char log_buf[1 << 20];
static size_t log_len;

static int collect(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	if (log_len < sizeof(log_buf) - 1) {
		int n = vsnprintf(log_buf + log_len, sizeof(log_buf) - log_len, fmt, ap);

		if (n > 0)
			log_len += (size_t)n < sizeof(log_buf) - log_len
					   ? (size_t)n
					   : sizeof(log_buf) - log_len - 1;
	}
	return 0;
}

static char stats_buf[8][1 << 20];

static int budget(const char *path, long max)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *prog;
	int i = 0, err, bad = 0;

	if (!obj) {
		fprintf(stderr, "%s: cannot open\n", path);
		return 2;
	}
	bpf_object__for_each_program(prog, obj) {
		if (i >= 8)
			break;
		bpf_program__set_log_level(prog, 4); /* BPF_LOG_STATS */
		bpf_program__set_log_buf(prog, stats_buf[i++], sizeof(stats_buf[0]));
	}
	err = bpf_object__load(obj);
	if (err) {
		/* libbpf's own words first: which program or map, and why. */
		fprintf(stderr, "%s: load: %s\n%s\n", path, strerror(-err),
			log_buf + (log_len > 3000 ? log_len - 3000 : 0));
		for (i = 0; i < 8; i++)
			if (stats_buf[i][0])
				fprintf(stderr, "%s: does not load:\n%s\n", path,
					stats_buf[i] + (strlen(stats_buf[i]) > 3000
								? strlen(stats_buf[i]) - 3000
								: 0));
		bpf_object__close(obj);
		return 1;
	}
	i = 0;
	bpf_object__for_each_program(prog, obj) {
		const char *s = strstr(stats_buf[i], "processed ");
		const char *d = strstr(stats_buf[i++], "stack depth ");
		long n = s ? strtol(s + 10, NULL, 10) : -1;

		/* The frames' bytes too: the packet programs' calls may use 512 together. */
		printf("%-24s %8ld instructions verified (budget %ld), stack %.*s\n",
		       bpf_program__name(prog), n, max, d ? (int)strcspn(d + 12, "\n") : 1,
		       d ? d + 12 : "?");
		if (n < 0 || n > max)
			bad = 1;
		if (i >= 8)
			break;
	}
	bpf_object__close(obj);
	return bad;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int err;

	libbpf_set_print(collect);
	if (argc == 4 && !strcmp(argv[1], "--budget"))
		return budget(argv[3], strtol(argv[2], NULL, 10));

	if (argc != 3) {
		fprintf(stderr, "usage: %s OBJ EXPECTED-LOG-SUBSTRING | --budget MAX OBJ\n",
			argv[0]);
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "%s: cannot open\n", argv[1]);
		return 2;
	}
	err = bpf_object__load(obj);
	bpf_object__close(obj);
	if (!err) {
		fprintf(stderr, "%s: loaded, but the verifier should have refused it\n", argv[1]);
		return 1;
	}
	if (!strstr(log_buf, argv[2])) {
		fprintf(stderr, "%s: refused, but the log lacks \"%s\":\n%s\n", argv[1], argv[2],
			log_buf);
		return 1;
	}
	return 0;
}
