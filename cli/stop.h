/*
 * SIGINT / SIGTERM during `dalic run` and `dalic stats` (issue 20): the signal only asks the
 * command to stop after the iteration in flight; the command then prints the summary of the
 * iterations completed so far and exits 128 + the signal (130, 143), as a shell reports it.
 */
#ifndef DALIC_CLI_STOP_H
#define DALIC_CLI_STOP_H

/* Installs the handlers (a second signal of the same kind kills as usual). */
void dalic_cli_stop_catch(void);
/* The signal that asked to stop, 0 when none. */
int dalic_cli_stop_signal(void);
/* The exit status for a command stopped by dalic_cli_stop_signal() (0 when not stopped). */
int dalic_cli_stop_status(void);

#endif
