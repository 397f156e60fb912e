// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * vlines [-n TOP] OBJ PROG [OBJ2]: how often the verifier walked each source
 * line of program PROG of the BPF object OBJ (docs/bpf-notes.md, "256 bytes,
 * not 128"). PROG alone is loaded, with the verifier's log at level 2 into a
 * buffer of nearly 1 GB; the log names a source line ("; text @ file:line")
 * each time the walk enters one, and those are counted. The busiest TOP
 * lines are printed (default 30). With OBJ2, the same program of a second
 * build too, and the lines sorted by how many more walks OBJ's took: where
 * a change made the verifier's work grow. A developer's tool, built by
 * scripts/verifier-lines.sh: not part of dynpf.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#define LOG_SIZE ((1u << 30) - 4096) /* the kernel takes at most 1 GB - 1 */

struct line {
	char *key;  /* file:line */
	char *text; /* the source text, as the log gives it */
	long n[2];  /* walks in OBJ, in OBJ2 */
};

static struct line *lines;
static size_t nlines, caplines;

/* libbpf would print the whole log's tail on a refusal: its counts are the output. */
static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->key, ((const struct line *)b)->key);
}

/* Count one walk of key (text: its source) for build which. */
static void count(char *key, char *text, int which)
{
	if (nlines == caplines) {
		caplines = caplines ? caplines * 2 : 4096;
		lines = realloc(lines, caplines * sizeof(*lines));
		if (!lines) {
			perror("vlines");
			exit(1);
		}
	}
	lines[nlines++] =
		(struct line){ .key = key, .text = text, .n = { which == 0, which == 1 } };
}

/* Merge the entries of equal keys (after a sort). */
static void merge(void)
{
	size_t i, o = 0;

	qsort(lines, nlines, sizeof(*lines), by_key);
	for (i = 0; i < nlines; i++) {
		if (o && !strcmp(lines[o - 1].key, lines[i].key)) {
			lines[o - 1].n[0] += lines[i].n[0];
			lines[o - 1].n[1] += lines[i].n[1];
		} else {
			lines[o++] = lines[i];
		}
	}
	nlines = o;
}

/* Load prog of obj with a level-2 log and count its lines; the instructions processed. */
static long walk(const char *obj, const char *prog, int which, char *buf)
{
	struct bpf_object *o;
	struct bpf_program *p;
	long processed = -1;
	int found = 0, err;
	char *s, *nl, *at;

	o = bpf_object__open(obj);
	if (!o) {
		fprintf(stderr, "vlines: %s: %s\n", obj, strerror(errno));
		exit(1);
	}
	bpf_object__for_each_program(p, o) {
		if (strcmp(bpf_program__name(p), prog)) {
			bpf_program__set_autoload(p, false);
			continue;
		}
		found = 1;
		bpf_program__set_log_level(p, 2);
		bpf_program__set_log_buf(p, buf, LOG_SIZE);
	}
	if (!found) {
		fprintf(stderr, "vlines: %s: no program %s; it has:", obj, prog);
		bpf_object__for_each_program(p, o)
			fprintf(stderr, " %s", bpf_program__name(p));
		fprintf(stderr, "\n");
		exit(1);
	}
	buf[0] = 0;
	err = bpf_object__load(o);
	for (s = buf; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;
		*nl = 0;
		if (!strncmp(s, "processed ", 10))
			processed = strtol(s + 10, NULL, 10);
		at = strstr(s, " @ ");
		if (s[0] == ';' && at) {
			*at = 0;
			count(strdup(at + 3), strdup(s + 2), which);
		}
	}
	printf("%s %s: %ld instructions processed%s\n", obj, prog, processed,
	       err ? " (refused)" : "");
	bpf_object__close(o);
	return processed;
}

static int by_walks(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	long dx = x->n[0] - x->n[1], dy = y->n[0] - y->n[1];

	if (dx != dy)
		return dx < dy ? 1 : -1;
	if (x->n[0] != y->n[0])
		return x->n[0] < y->n[0] ? 1 : -1;
	return strcmp(x->key, y->key);
}

int main(int argc, char **argv)
{
	int top = 30, c, two;
	size_t i;
	char *buf;

	while ((c = getopt(argc, argv, "n:h")) != -1) {
		if (c == 'n') {
			top = atoi(optarg);
			continue;
		}
		fprintf(c == 'h' ? stdout : stderr, "usage: %s [-n TOP] OBJ PROG [OBJ2]\n",
			argv[0]);
		return c == 'h' ? 0 : 2;
	}
	if (argc - optind != 2 && argc - optind != 3) {
		fprintf(stderr, "usage: %s [-n TOP] OBJ PROG [OBJ2]\n", argv[0]);
		return 2;
	}
	two = argc - optind == 3;
	buf = malloc(LOG_SIZE); /* touched only as far as the log goes */
	if (!buf) {
		perror("vlines");
		return 1;
	}
	libbpf_set_print(silent);
	if (walk(argv[optind], argv[optind + 1], 0, buf) < 0 ||
	    (two && walk(argv[optind + 2], argv[optind + 1], 1, buf) < 0)) {
		fprintf(stderr, "vlines: the verifier's log has no count (truncated?)\n");
		return 1;
	}
	merge();
	qsort(lines, nlines, sizeof(*lines), by_walks);
	printf(two ? "%10s %10s %10s  %-22s %s\n" : "%10s  %-22s %s\n", "walks",
	       two ? "OBJ2" : "line", two ? "more" : "text", two ? "line" : "", two ? "text" : "");
	for (i = 0; i < nlines && (int)i < top; i++) {
		if (two)
			printf("%10ld %10ld %+10ld  %-22s %.60s\n", lines[i].n[0], lines[i].n[1],
			       lines[i].n[0] - lines[i].n[1], lines[i].key, lines[i].text);
		else
			printf("%10ld  %-22s %.60s\n", lines[i].n[0], lines[i].key, lines[i].text);
	}
	return 0;
}
