// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_verifier OBJ EXPECTED: load every program of OBJ and pass only if the
 * verifier rejects it with a log containing EXPECTED. A program that loads
 * is a failure: the misuse it shows was not caught.
 */
#include <stdarg.h>
#include <stdio.h>
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
			log_len += (size_t)n < sizeof(log_buf) - log_len ? (size_t)n
									  : sizeof(log_buf) - log_len - 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: %s OBJ EXPECTED-LOG-SUBSTRING\n", argv[0]);
		return 2;
	}
	libbpf_set_print(collect);
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
