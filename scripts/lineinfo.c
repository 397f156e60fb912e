// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * lineinfo PROG_ID: reads instruction addresses of the loaded program
 * PROG_ID (hex, one per line, as `perf script -F ip` prints them) on stdin
 * and prints for each the source file and line the JIT made it from
 * ("cursor.h:285"), from the program's jited_line_info and line_info; "?"
 * for an address before its first line. A developer's tool of
 * scripts/lineprof.sh, built by it: not part of dynpf.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	struct bpf_prog_info info = {};
	struct bpf_line_info *li;
	__u32 len = sizeof(info), nli, njli, btf_id;
	struct btf *btf;
	char buf[64];
	__u64 *jli;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s PROG_ID < addresses\n", argv[0]);
		return 2;
	}
	fd = bpf_prog_get_fd_by_id(strtoul(argv[1], NULL, 10));
	if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "lineinfo: program %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	nli = info.nr_line_info;
	njli = info.nr_jited_line_info;
	btf_id = info.btf_id;
	if (!nli || nli != njli) {
		fprintf(stderr, "lineinfo: program %s has no line info for its JITed code\n",
			argv[1]);
		return 1;
	}
	li = calloc(nli, sizeof(*li));
	jli = calloc(njli, sizeof(*jli));
	if (!li || !jli)
		return 1;
	memset(&info, 0, sizeof(info));
	info.nr_line_info = nli;
	info.line_info_rec_size = sizeof(*li);
	info.line_info = (__u64)(unsigned long)li;
	info.nr_jited_line_info = njli;
	info.jited_line_info_rec_size = sizeof(*jli);
	info.jited_line_info = (__u64)(unsigned long)jli;
	len = sizeof(info);
	btf = btf__load_from_kernel_by_id(btf_id);
	if (bpf_prog_get_info_by_fd(fd, &info, &len) || !btf) {
		fprintf(stderr, "lineinfo: program %s: its line info: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	while (fgets(buf, sizeof(buf), stdin)) {
		unsigned long long ip = strtoull(buf, NULL, 16);
		const char *file, *base;
		long best = -1;

		/* The line of the nearest address at or below ip (the records
		 * are in address order per function, not across them). */
		for (__u32 i = 0; i < njli; i++)
			if (jli[i] <= ip && (best < 0 || jli[i] >= jli[best]))
				best = i;
		if (best < 0) {
			puts("?");
			continue;
		}
		file = btf__name_by_offset(btf, li[best].file_name_off);
		base = file ? strrchr(file, '/') : NULL;
		printf("%s:%u\n",
		       base   ? base + 1
		       : file ? file
			      : "?",
		       BPF_LINE_INFO_LINE_NUM(li[best].line_col));
	}
	btf__free(btf);
	free(li);
	free(jli);
	return 0;
}
