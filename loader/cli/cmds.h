/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_CMDS_H
#define DYNPF_CMDS_H

/* Each subcommand lives in its own file; argv[0] is the command's name. */
int cmd_replay(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_daemon(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_rule(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_events(int argc, char **argv);

/* Exit codes shared by every command. */
#define DYNPF_EXIT_OK 0
#define DYNPF_EXIT_DIFF 1  /* ran, found differences */
#define DYNPF_EXIT_USAGE 2 /* bad invocation, bad input, or failure */

#endif
