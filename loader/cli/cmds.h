/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_CMDS_H
#define DYNPF_CMDS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Each subcommand lives in its own file; argv[0] is the command's name.
 * main.c's table maps the words to them (dynpf help lists them). The daemon's
 * client, which status, rule, rules and attach share, is client.c (client.h).
 */
int cmd_replay(int argc, char **argv); /* cli/replay.c */
int cmd_parse(int argc, char **argv);  /* cli/parse.c */
int cmd_bench(int argc, char **argv);  /* bench/main.c */
int cmd_rules(int argc, char **argv);  /* cli/rules.c: check, load, save */
int cmd_daemon(int argc, char **argv); /* daemon/main.c */
int cmd_status(int argc, char **argv); /* cli/status.c */
int cmd_rule(int argc, char **argv);   /* cli/rule.c: add, del, list */
int cmd_stats(int argc, char **argv);  /* cli/status.c, with --watch */
int cmd_attach(int argc, char **argv); /* cli/attach.c */
int cmd_detach(int argc, char **argv); /* cli/attach.c, and detach --all */
int cmd_events(int argc, char **argv); /* cli/events.c */

#include "lib/util.h" /* DYNPF_EXIT_*, the exit codes of every command */

/*
 * What the commands share (cli/cmds.c). A table of commands or subcommands
 * (bpftool's grammar): a word matches a row's name whole, never a prefix.
 */
struct dynpf_cmd {
	const char *name;
	int (*fn)(int argc, char **argv); /* NULL: the table's "help" */
	const char *help;
};

/* The row of tab (n rows) named word, or NULL. */
const struct dynpf_cmd *dynpf_cmd_find(const struct dynpf_cmd *tab, size_t n, const char *word);
/* A usage text: head, then a line a row (its name and help), then tail. */
void dynpf_cmds_usage(FILE *f, const struct dynpf_cmd *tab, size_t n, const char *head,
		      const char *tail);

/* arg asks for help: -h or --help. */
bool dynpf_is_help(const char *arg);
/* After a bad option: "Try 'dynpf CMD --help'." on stderr; DYNPF_EXIT_USAGE. */
int dynpf_try_help(const char *cmd);
/* The value of cmd's --count arg (a positive number), or -1 after saying why. */
long dynpf_arg_count(const char *cmd, const char *arg);

/*
 * replay and parse (replay.c): -h, or an option of the walk over a capture
 * they share (replay/report.h). -1 when taken; else the command's exit
 * code, after its usage or the hint for an unknown option.
 */
struct dynpf_walk_opts;
int dynpf_cli_walk_opt(struct dynpf_walk_opts *o, int c, const char *cmd, void (*usage)(FILE *f));

/* Set by the signals given to dynpf_stop_on(): Ctrl-C ends a stream cleanly. */
extern volatile sig_atomic_t dynpf_stop;
void dynpf_stop_on(int sig);

#endif
