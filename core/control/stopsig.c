#include "config.h"
#include "stopsig.h"
#include "atdeath.h"
#include "sigrestore.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_sig;
static volatile sig_atomic_t sig_graceful;

/* The stop-signal policy: one row per signal whose default action ends
 * the process.  Every front end installs it (stopsig_install) and
 * asks stopsig_signal(); nothing else installs handlers for these. */
enum sig_act {
	SA_NONE = 0,
	SA_STOP,    /* asked to stop: graceful, the loop ends; else restore and die */
	SA_NOW,     /* QUIT: restore and die now (it asks for a core) */
	SA_FAULT,   /* synchronous faults: restore and die, caught even when ignored */
	SA_IGNORE,  /* PIPE, XFSZ: the write fails (EPIPE, EFBIG) and is reported */
};

static const struct sig_rule {
	int sig;
	unsigned char act;
	bool quiet;   /* the front end gives its own exit status (INT, TERM, HUP) */
} sig_rules[] = {
	{ SIGINT, SA_STOP, true }, { SIGTERM, SA_STOP, true }, { SIGHUP, SA_STOP, true },
	{ SIGUSR1, SA_STOP, false }, { SIGUSR2, SA_STOP, false }, { SIGALRM, SA_STOP, false },
	{ SIGVTALRM, SA_STOP, false }, { SIGPROF, SA_STOP, false }, { SIGXCPU, SA_STOP, false },
#ifdef SIGPWR
	{ SIGPWR, SA_STOP, false },
#endif
#ifdef SIGSTKFLT
	{ SIGSTKFLT, SA_STOP, false },
#endif
#ifdef SIGIO
	{ SIGIO, SA_STOP, false },
#endif
#ifdef SIGLOST
	{ SIGLOST, SA_STOP, false },
#endif
#ifdef SIGEMT
	{ SIGEMT, SA_FAULT, false },
#endif
	{ SIGQUIT, SA_NOW, false },
	{ SIGSEGV, SA_FAULT, false }, { SIGBUS, SA_FAULT, false }, { SIGABRT, SA_FAULT, false },
	{ SIGFPE, SA_FAULT, false }, { SIGILL, SA_FAULT, false }, { SIGTRAP, SA_FAULT, false },
	{ SIGSYS, SA_FAULT, false },
	{ SIGPIPE, SA_IGNORE, false }, { SIGXFSZ, SA_IGNORE, false },
};
enum { N_RULES = sizeof sig_rules / sizeof sig_rules[0] };

/* What the handler does with each signal, filled at install. */
static volatile sig_atomic_t sig_act[NSIG];
static volatile sig_atomic_t first_stop;

static void die_of(int sig)
{
	sigrestore_run();
	atdeath_run();
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/* Self-pipe written on a graceful stop: a loop that polls it wakes even
 * when the signal lands just before poll() (the flag alone could leave a
 * whole --interval to sleep out). */
static int stop_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved_errno = errno;
	int act = sig > 0 && sig < NSIG ? (int)sig_act[sig] : SA_FAULT;
	if (act == SA_STOP && sig_graceful && !stop_sig) {
		stop_sig = sig;
		if (!first_stop)
			first_stop = sig;
		if (stop_pipe[1] >= 0) {
			ssize_t w = write(stop_pipe[1], "", 1);
			(void)w;
		}
		errno = saved_errno;
		return;
	}
	die_of(sig);
	errno = saved_errno;
}

/* The table, and the real-time signals (their default ends the process
 * too; their numbers are only known at run time). */
static int rule_act(int sig)
{
	for (size_t i = 0; i < N_RULES; i++)
		if (sig_rules[i].sig == sig)
			return sig_rules[i].act;
#if defined(SIGRTMIN) && defined(SIGRTMAX)
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		return SA_STOP;
#endif
	return SA_NONE;
}

int stopsig_policy(int sig)
{
	switch (sig > 0 && sig < NSIG ? rule_act(sig) : SA_NONE) {
	case SA_STOP: return STOPSIG_STOP;
	case SA_NOW:
	case SA_FAULT: return STOPSIG_DIE;
	case SA_IGNORE: return STOPSIG_IGNORE;
	default: return STOPSIG_DEFAULT;
	}
}

int stopsig_install(bool graceful)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* One restore at a time: the others wait until the first has died. */
	for (int sig = 1; sig < NSIG; sig++) {
		int a = rule_act(sig);
		if (a != SA_NONE && a != SA_IGNORE)
			sigaddset(&sa.sa_mask, sig);
	}
	/* Once a front end asked for a graceful stop, it stays so (control
	 * opened later installs again). */
	if (graceful) {
		sig_graceful = 1;
		if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
			stop_pipe[0] = stop_pipe[1] = -1;   /* the flag still stops, a wait later */
	}
	for (int sig = 1; sig < NSIG; sig++) {
		int a = rule_act(sig);
		if (a == SA_NONE)
			continue;
		struct sigaction old;
		if (sigaction(sig, NULL, &old) != 0)
			continue;   /* glibc's own real-time signals */
		if (a == SA_IGNORE) {
			struct sigaction ign = sa;
			ign.sa_handler = SIG_IGN;
			if (sigaction(sig, &ign, NULL) < 0)
				return errno;
			sig_act[sig] = a;
			continue;
		}
		/* A signal ignored from the start stays ignored: `nohup dvfstop`
		 * must outlive the SSH session (HUP), and a background job is not
		 * for Ctrl-C.  It cannot end us, so the clocks are given back at
		 * exit.  Faults cannot be ignored usefully: always caught. */
		if (a != SA_FAULT && old.sa_handler == SIG_IGN)
			continue;
		sig_act[sig] = a;
		if (sigaction(sig, &sa, NULL) < 0)
			return errno;
	}
	return 0;
}

bool stopsig_asked(void)
{
	return stop_sig != 0 || ferror(stdout) || ferror(stderr);
}

int stopsig_signal(void)
{
	return stop_sig;
}

int stopsig_fd(void)
{
	return stop_pipe[0];
}

volatile sig_atomic_t *stopsig_flag(void)
{
	return &stop_sig;
}

int stopsig_take(void *ctx)
{
	(void)ctx;
	int sig = stop_sig;
	if (sig && sig != SIGHUP)
		stop_sig = 0;
	return sig;
}

void stopsig_raise_pending(void)
{
	int sig = stop_sig;
	if (!sig)
		return;
	sigrestore_run();
	atdeath_run();
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

void stopsig_raise_unhandled(void)
{
	int sig = first_stop;
	if (!sig)
		return;
	for (size_t i = 0; i < N_RULES; i++)
		if (sig_rules[i].sig == sig && sig_rules[i].quiet)
			return;
	stop_sig = sig;
	stopsig_raise_pending();
}
