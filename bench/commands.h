/* commands.h: the subcommands of the scanbench program, one file each. Each returns the exit
 * status: 0 done, 1 a run failed, 2 bad input, 3 counters required but unavailable. */
#ifndef SB_COMMANDS_H
#define SB_COMMANDS_H

int sb_cmd_run(int argc, char **argv);
int sb_cmd_topo(int argc, char **argv);
int sb_cmd_list(int argc, char **argv);
int sb_cmd_events(int argc, char **argv);
int sb_cmd_compare(int argc, char **argv);
int sb_cmd_plot(int argc, char **argv);
int sb_cmd_reproduce(int argc, char **argv);
int sb_cmd_pg(int argc, char **argv);

#endif
