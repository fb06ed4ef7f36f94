/* Stopping `dalic run` / `dalic stats` between iterations on SIGINT or SIGTERM (stop.h). */
#include "cli/stop.h"

#include <signal.h>
#include <stddef.h>

static volatile sig_atomic_t cli_stop_sig;

static void cli_stop_on_signal(int sig)
{
	cli_stop_sig = sig;
	signal(sig, SIG_DFL); /* the next one of this kind ends the process at once */
}

void dalic_cli_stop_catch(void)
{
	struct sigaction sa = {.sa_handler = cli_stop_on_signal, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int dalic_cli_stop_signal(void)
{
	return cli_stop_sig;
}

int dalic_cli_stop_status(void)
{
	return cli_stop_sig ? 128 + cli_stop_sig : 0;
}
