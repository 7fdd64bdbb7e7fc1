#include "config.h"
#include "atdeath.h"

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

enum { ATDEATH_HOOKS = 4 };
static void (*volatile hook_fn[ATDEATH_HOOKS])(void *);
static void *volatile hook_ctx[ATDEATH_HOOKS];
/* A forked child inherits the table; only the registering process runs a
 * hook (the child must not remove its parent's tree). */
static volatile pid_t hook_pid[ATDEATH_HOOKS];

void atdeath_run(void)
{
	pid_t me = getpid();
	for (int i = 0; i < ATDEATH_HOOKS; i++) {
		void (*fn)(void *) = hook_fn[i];
		if (fn && hook_pid[i] == me) {
			hook_fn[i] = NULL;
			fn(hook_ctx[i]);
		}
	}
}

int atdeath_add(void (*fn)(void *), void *ctx)
{
	for (int i = 0; i < ATDEATH_HOOKS; i++) {
		if (hook_fn[i])
			continue;
		hook_ctx[i] = ctx;
		hook_pid[i] = getpid();
		hook_fn[i] = fn;
		return 0;
	}
	return ENOSPC;
}

void atdeath_remove(void (*fn)(void *), void *ctx)
{
	for (int i = 0; i < ATDEATH_HOOKS; i++)
		if (hook_fn[i] == fn && hook_ctx[i] == ctx)
			hook_fn[i] = NULL;
}
