// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What the commands share (cmds.h): tables of commands matched by whole
 * words, the help words and the hint after a bad option, --count, and the
 * flag Ctrl-C sets in a command that streams.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmds.h"
#include "lib/log.h"

const struct dynpf_cmd *dynpf_cmd_find(const struct dynpf_cmd *tab, size_t n, const char *word)
{
	/* Whole words only: no prefix matching. */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(word, tab[i].name))
			return &tab[i];
	return NULL;
}

void dynpf_cmds_usage(FILE *f, const struct dynpf_cmd *tab, size_t n, const char *head,
		      const char *tail)
{
	fputs(head, f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-8s %s\n", tab[i].name, tab[i].help);
	fputs(tail, f);
}

bool dynpf_is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

int dynpf_try_help(const char *cmd)
{
	fprintf(stderr, "Try 'dynpf %s --help'.\n", cmd);
	return DYNPF_EXIT_USAGE;
}

long dynpf_arg_count(const char *cmd, const char *arg)
{
	long n = strtol(arg, NULL, 10);

	if (n <= 0) {
		p_err("%s: --count %s: expected a positive number", cmd, arg);
		return -1;
	}
	return n;
}

volatile sig_atomic_t dynpf_stop;

static void on_stop(int sig)
{
	(void)sig;
	dynpf_stop = 1;
}

void dynpf_stop_on(int sig)
{
	signal(sig, on_stop);
}
