/*
 * `dalic debug` and `dalic run --debug` (private to cli/cmd_debug*.c): the pieces the line
 * interface, its inspection commands and the eager run share. Everything goes through the
 * public session API of include/dalic_debug.h.
 */
#ifndef DALIC_CLI_CMD_DEBUG_H
#define DALIC_CLI_CMD_DEBUG_H

#include "cli/cli.h"
#include "dalic_debug.h"

/* Inspection commands (cmd_debug_info.c). Each prints to stdout and returns DALIC_OK, or
 * prints nothing and returns a status with dalic_last_error() set. */
int dalic_cli_debug_print(dalic_debug_t *s, const char *arg);
int dalic_cli_debug_info(dalic_debug_t *s, const char *arg);
int dalic_cli_debug_save(dalic_debug_t *s, const char *arg);
/* Why the last run command stopped and where the session is now; `rc` is what it returned. */
void dalic_cli_debug_show_stop(dalic_debug_t *s, int rc);
/* One line: "iteration 3, next operator 2/7: __Cast_1 (Cast)" or "iteration 3 complete". */
void dalic_cli_debug_show_position(dalic_debug_t *s);

/* `dalic run --debug` (cmd_debug_run.c): runs `iterations` iterations of `p` (loaded, not
 * built; consumed) eagerly and prints the run summary (text or JSON, as `dalic run`), with
 * the full engine's time on the same pipeline and the slowdown; `dump` writes every output
 * sample as `dalic run --dump` does. Returns the process exit status. */
/* `dalic run --debug`; ck: --checkpoint / --at / --save-checkpoint (cli/ckpt.h). */
struct dalic_cli_ckpt_opts;
int dalic_cli_debug_run(const dalic_cli_pipeline_opts_t *o, dalic_pipeline_t *p,
                        long iterations, bool json, const char *dump,
                        const struct dalic_cli_ckpt_opts *ck);

#endif
